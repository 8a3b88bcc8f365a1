/**
 * The platforms whose channels are linked through their own OAuth (ADR 037);
 * Twitch's channel comes with Twitch sign-in instead.
 */
export type ChannelPlatform = 'youtube' | 'kick'

export const CHANNEL_PLATFORMS: readonly ChannelPlatform[] = ['youtube', 'kick']

export const isChannelPlatform = (value: unknown): value is ChannelPlatform => value === 'youtube' || value === 'kick'
