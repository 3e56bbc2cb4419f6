"""Small widgets and helpers shared by the views: theme, icons, tooltips, long text, guards."""
