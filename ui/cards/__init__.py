"""The card list: the model over ids and a row cache, its delegate and layout, the filter bar."""
