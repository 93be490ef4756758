"""Evaluation: classifiers that behave like Weka's (``weka_like``)."""

from .weka_like import J48Like, WekaIB1, WekaNaiveBayes

__all__ = ["WekaNaiveBayes", "J48Like", "WekaIB1"]
