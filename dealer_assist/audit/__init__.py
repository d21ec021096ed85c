"""The referee: checks table events and dealer actions against the rules and raises flags and awards."""
