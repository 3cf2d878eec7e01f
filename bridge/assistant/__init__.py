"""`relay mcp`: the MCP server on stdio, so that a person's assistant can use Relay on their
behalf. It reads and plans through the same dispatcher as every other front door, and it has no
way to fill a page or submit anything. See docs/mcp.md.
"""
