/** The session page's share card size (Open Graph's large image); drawn by session-card.server.ts. */
export const SESSION_CARD = { width: 1200, height: 630 } as const
