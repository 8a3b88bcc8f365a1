import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { RealtimeClient } from '@supabase/realtime-js'
import { useNavigation, useRevalidator } from 'react-router'
import type { PublicEnv } from '#app/env.server'
import { useRootData } from '#app/root-data'

/**
 * Live updates in the browser, with realtime-js (its own heartbeat,
 * timeouts, reconnect steps and push buffer: the library's defaults, as
 * docs/product.md §15.7 says). The library loads only when a component subscribes,
 * after hydration; one socket per tab serves every subscription. Tokens come
 * from /api/realtime/token and are renewed before they expire (realtime-js
 * asks through `accessToken` on every heartbeat and pushes a changed token to
 * the relay).
 */
export type LiveState = 'connecting' | 'live' | 'reconnecting'

/**
 * realtime-js requires an API key (Supabase's anon key) in the URL; the local
 * relay identifies nobody by it: the join's access token decides.
 */
export const LOCAL_API_KEY = 'local'

/** A token is renewed when less than this is left of it. */
const RENEW_BEFORE_MS = 60_000

/** Where the client connects: the app's own relay (local), or the Supabase project's Realtime. */
export function realtimeEndpoint(env: Pick<PublicEnv, 'PLATFORM' | 'SUPABASE_URL' | 'SUPABASE_ANON_KEY'> | undefined, location: { protocol: string; host: string }) {
	if (env?.PLATFORM === 'supabase' && env.SUPABASE_URL && env.SUPABASE_ANON_KEY) {
		return { url: `${env.SUPABASE_URL.replace(/^http/, 'ws').replace(/\/+$/, '')}/realtime/v1`, apiKey: env.SUPABASE_ANON_KEY }
	}
	return { url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/realtime/v1`, apiKey: LOCAL_API_KEY }
}

let shared: { who: string; client: Promise<RealtimeClient> } | null = null

/**
 * The options the page gives realtime-js: the token and the API key, nothing
 * else, so the heartbeat (25 s), the timeout (10 s), the reconnect steps (1,
 * 2, 5, 10 s) and the push buffer (100) stay the library's (a test holds them).
 */
export function realtimeOptions(accessToken: () => Promise<string | null>, apiKey: string) {
	return { accessToken, params: { apikey: apiKey } }
}

/** The tab's client for `who` (a user id, or 'anon'): a new one when the person changed (sign-in, sign-out). */
function clientFor(who: string, endpoint: { url: string; apiKey: string }): Promise<RealtimeClient> {
	if (shared?.who === who) return shared.client
	const previous = shared
	let token: { token: string | null; expiresAt: number } | null = null
	const accessToken = async () => {
		if (!token || token.expiresAt - Date.now() < RENEW_BEFORE_MS) {
			const response = await fetch('/api/realtime/token', { credentials: 'same-origin', cache: 'no-store' })
			if (!response.ok) return null
			token = (await response.json()) as { token: string | null; expiresAt: number }
		}
		return token.token
	}
	const client = (async () => {
		if (previous) (await previous.client.catch(() => null))?.disconnect()
		const { RealtimeClient } = await import('@supabase/realtime-js')
		const created = new RealtimeClient(endpoint.url, realtimeOptions(accessToken, endpoint.apiKey))
		// The join carries the token: have it before the first subscription.
		await created.setAuth()
		return created
	})()
	shared = { who, client }
	client.catch(() => {
		if (shared?.client === client) shared = null
	})
	return client
}

/**
 * Subscribes to `event` broadcasts on `topic` (a private channel; null: none)
 * as `who`. `onMessage` gets each payload as sent (what it means and whether
 * it follows the last one is the caller's: session-feed.ts); `onRejoin` runs
 * each time the channel is joined again after being cut, so the page can
 * catch up on what it missed. Returns whether updates are arriving.
 */
export function useLiveTopic(
	topic: string | null,
	event: string,
	who: string,
	onMessage: (payload: unknown) => void,
	onRejoin?: () => void,
): LiveState {
	const [state, setState] = useState<LiveState>('connecting')
	const env = useRootData()?.env
	// Primitives, so that a revalidated root (a new env object) does not resubscribe.
	const platform = env?.PLATFORM
	const supabaseUrl = env?.SUPABASE_URL
	const supabaseKey = env?.SUPABASE_ANON_KEY
	const handlers = useRef({ onMessage, onRejoin })
	// Updated as each render commits, not after paint: a message that arrives
	// in between reaches the handlers of the page it sees (a page's catch-up
	// asks whether a navigation is under way, see useCatchUp).
	useLayoutEffect(() => {
		handlers.current = { onMessage, onRejoin }
	})

	useEffect(() => {
		if (topic === null) return
		let cancelled = false
		let cleanup = () => {}
		clientFor(who, realtimeEndpoint({ PLATFORM: platform ?? 'local', SUPABASE_URL: supabaseUrl, SUPABASE_ANON_KEY: supabaseKey }, window.location))
			.then((client) => {
				if (cancelled) return
				let joinedBefore = false
				const channel = client
					.channel(topic, { config: { private: true } })
					// Not once this subscription is over (the page may show another topic by then).
					.on('broadcast', { event }, (message) => {
						if (!cancelled) handlers.current.onMessage(message.payload)
					})
					.subscribe((status) => {
						if (cancelled) return
						if (status === 'SUBSCRIBED') {
							setState('live')
							if (joinedBefore) handlers.current.onRejoin?.()
							joinedBefore = true
						} else setState('reconnecting')
					})
				cleanup = () => void client.removeChannel(channel)
			})
			// Without live updates the page is still right after every action and on reload.
			.catch(() => {
				if (!cancelled) setState('reconnecting')
			})
		return () => {
			cancelled = true
			cleanup()
		}
	}, [topic, event, who, platform, supabaseUrl, supabaseKey])

	return state
}

/**
 * Reloads the page's data after a missed live update or a rejoin: never beside a
 * navigation or submission (their loaders carry the action's toast, which a
 * concurrent revalidation would take and lose) nor beside another reload;
 * asked meanwhile, it runs once more when they are over, so the latest data
 * comes last.
 */
export function useCatchUp(): () => void {
	const revalidator = useRevalidator()
	const navigation = useNavigation()
	const busy = revalidator.state !== 'idle' || navigation.state !== 'idle'
	const again = useRef(false)
	useEffect(() => {
		if (!busy && again.current) {
			again.current = false
			void revalidator.revalidate()
		}
	}, [busy, revalidator])
	return () => {
		if (busy) again.current = true
		else void revalidator.revalidate()
	}
}
