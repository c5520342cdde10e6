"""What 13 Leaves' compiled policies read the board through: ``features`` (minimum counts,
new ends, takes: numba helpers, so no two policies repeat a rule) and ``counting`` (the cards
each seat may still hold, counted action by action). Their parameters are declared with
``strategies.policy.params``, which every game shares."""
