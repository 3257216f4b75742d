"""Agents: whoever decides for a seat, from its observation and the legal actions only.

``registry.py`` holds the agent kinds (``random``, ``first``, ``human``), the registry
(``register_agent``, ``make_agents``) and how a game asks an agent (``choose``); the search
agents ``greedy.py`` (one-step look-ahead), ``rollouts.py`` (flat Monte Carlo) and
``search.py`` (ismcts, mcts) decide from a ``view.py`` SeatView and value positions with
``evaluation.py``. The registry's names are importable from here:
``from interpreter.play.agents import register_agent, make_agents``.
"""
from .registry import (AGENT_PARAMS, AGENTS, ActingAgent, Agent, AgentFactory, DecidingAgent, FirstAgent,
                       HumanAgent, LazyLabels, RandomAgent, TableReporter, agent_seed, choose, make_agents,
                       needs_knowledge, parse_spec, register_agent, summarise)
from .view import SeatView

__all__ = ["AGENT_PARAMS", "AGENTS", "ActingAgent", "Agent", "AgentFactory", "DecidingAgent", "FirstAgent",
           "HumanAgent", "LazyLabels", "RandomAgent", "SeatView", "TableReporter", "agent_seed", "choose",
           "make_agents", "needs_knowledge", "parse_spec", "register_agent", "summarise"]
