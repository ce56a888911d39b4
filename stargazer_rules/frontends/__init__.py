"""The front ends: the ways a person or a program reaches the library.

``cli`` is the ``stargazer`` command (validate, rules, new-draft, play-random, simulate,
compare, report, play, replay, serve); ``terminal`` the screen and input loop of ``stargazer
play`` and ``replay``; ``server`` the JSON API and the browser page of ``stargazer serve``, with
its static files, request schemas and page words. This is the top layer: it may import every
layer below (``rulesets``, ``engine``, ``formats``, ``text``, ``bots``, ``simulation``,
``analysis``) and ``errors``, and nothing imports it but ``stargazer_rules.__main__``.
"""
