"""Symbolic checks: CrossHair contracts on the card modules and on evolve.

See verification/README.md, section "CrossHair contracts".
"""
