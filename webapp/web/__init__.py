"""The Flask app: one blueprint per area, with the session, the pages' words, rendering, forms and security."""
