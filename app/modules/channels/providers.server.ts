import type { Env } from '#app/env.server'
import type { ChannelPlatform } from './platforms'

/**
 * The platforms whose channels are linked through their own OAuth rather
 * than a sign-in method (Twitch's channel comes with Twitch sign-in): YouTube
 * through Google's OAuth with the read-only YouTube scope, Kick through its
 * OAuth 2.1 (PKCE required). Each answers "which channel does the account
 * that consented run?" from the platform's API; the answer is recorded as a
 * proof and linked by SQL (supabase/migrations/20261129000100_channels.sql).
 *
 * The endpoint URLs can be overridden, so the tests can put a stand-in on
 * loopback in the platforms' place (tests/support/channel-platforms.js).
 */
export interface ChannelProvider {
	platform: ChannelPlatform
	clientId: string
	clientSecret: string
	authorizationEndpoint: string
	tokenEndpoint: string
	scopes: string[]
	/** Extra parameters of the authorization request. */
	authorizationParams: Record<string, string>
	/** The channel of the account the access token belongs to; null when it has none. */
	fetchChannel(accessToken: string): Promise<ProvedChannel | null>
}

export interface ProvedChannel {
	/** The platform's stable id of the channel's account. */
	platformUserId: string
	/** The channel as the site's URLs name it (/{lang}/{platform}/{channel}). */
	channel: string
}

/** Thrown when the platform's API cannot be asked or answers unexpectedly. */
export class ChannelApiError extends Error {}

const GOOGLE_AUTHORIZATION_URL = 'https://accounts.google.com/o/oauth2/v2/auth'
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token'
const YOUTUBE_API_URL = 'https://www.googleapis.com/youtube/v3'
const KICK_AUTHORIZATION_URL = 'https://id.kick.com/oauth/authorize'
const KICK_TOKEN_URL = 'https://id.kick.com/oauth/token'
const KICK_API_URL = 'https://api.kick.com/public/v1'

const API_TIMEOUT_MS = 10_000

async function getJson(url: string, accessToken: string, platform: ChannelPlatform): Promise<unknown> {
	const response = await fetch(url, {
		headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
		signal: AbortSignal.timeout(API_TIMEOUT_MS),
	}).catch((error: unknown) => {
		throw new ChannelApiError(`${platform}: the API request failed`, { cause: error })
	})
	if (!response.ok) throw new ChannelApiError(`${platform}: the API answered ${response.status}`)
	return response.json().catch((error: unknown) => {
		throw new ChannelApiError(`${platform}: the API answered with something other than JSON`, { cause: error })
	})
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' ? String(value) : null)

/**
 * YouTube: `channels?mine=true` names the channel of the Google account that
 * consented. The site stores the channel id (`UC...`), which is what the
 * live embed needs (a handle cannot be embedded; ADR 018).
 */
function youtube(env: Env): ChannelProvider | null {
	if (!env.YOUTUBE_CLIENT_ID || !env.YOUTUBE_CLIENT_SECRET) return null
	const api = (env.YOUTUBE_API_URL ?? YOUTUBE_API_URL).replace(/\/+$/, '')
	return {
		platform: 'youtube',
		clientId: env.YOUTUBE_CLIENT_ID,
		clientSecret: env.YOUTUBE_CLIENT_SECRET,
		authorizationEndpoint: env.YOUTUBE_AUTH_URL ?? GOOGLE_AUTHORIZATION_URL,
		tokenEndpoint: env.YOUTUBE_TOKEN_URL ?? GOOGLE_TOKEN_URL,
		scopes: ['https://www.googleapis.com/auth/youtube.readonly'],
		// A person with several Google accounts (or brand accounts) picks the one that runs the channel.
		authorizationParams: { prompt: 'select_account' },
		async fetchChannel(accessToken) {
			const body = (await getJson(`${api}/channels?part=id&mine=true`, accessToken, 'youtube')) as { items?: Array<{ id?: unknown }> } | null
			const id = text(body?.items?.[0]?.id)
			return id ? { platformUserId: id, channel: id } : null
		},
	}
}

/** Kick: `channels` without parameters is the channel of the user the token belongs to. */
function kick(env: Env): ChannelProvider | null {
	if (!env.KICK_CLIENT_ID || !env.KICK_CLIENT_SECRET) return null
	const api = (env.KICK_API_URL ?? KICK_API_URL).replace(/\/+$/, '')
	return {
		platform: 'kick',
		clientId: env.KICK_CLIENT_ID,
		clientSecret: env.KICK_CLIENT_SECRET,
		authorizationEndpoint: env.KICK_AUTH_URL ?? KICK_AUTHORIZATION_URL,
		tokenEndpoint: env.KICK_TOKEN_URL ?? KICK_TOKEN_URL,
		scopes: ['user:read', 'channel:read'],
		authorizationParams: {},
		async fetchChannel(accessToken) {
			const body = (await getJson(`${api}/channels`, accessToken, 'kick')) as { data?: Array<{ broadcaster_user_id?: unknown; slug?: unknown }> } | null
			const channel = body?.data?.[0]
			const id = text(channel?.broadcaster_user_id)
			const slug = text(channel?.slug)
			return id && slug ? { platformUserId: id, channel: slug } : null
		},
	}
}

/** The configured channel providers (those with a client id and secret). */
export function channelProviders(env: Env): Partial<Record<ChannelPlatform, ChannelProvider>> {
	const providers: Partial<Record<ChannelPlatform, ChannelProvider>> = {}
	for (const provider of [youtube(env), kick(env)]) if (provider) providers[provider.platform] = provider
	return providers
}
