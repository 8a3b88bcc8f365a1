export interface ChannelPlatformStandIn {
	/** The stand-in's origin. */
	url: string
	/** How many token requests it answered (replays included). */
	received: { tokenRequests: number }
	/** The app's environment variables that point the platform at the stand-in. */
	env: Record<string, string>
	close(): Promise<void>
}

export function startChannelPlatform(platform: 'youtube' | 'kick', appUrl: string): Promise<ChannelPlatformStandIn>
