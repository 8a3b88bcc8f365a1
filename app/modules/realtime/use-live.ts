import { useEffect, useRef, useState } from 'react'

/**
 * Live updates of one topic in the browser, with realtime-js (its own
 * heartbeat, timeouts, reconnect steps and push buffer: the spec's constants
 * are the library's defaults). Loaded only by pages that subscribe, after
 * hydration. Tokens come from /api/realtime/token and are renewed before they
 * expire (realtime-js asks through `accessToken` on every heartbeat and pushes
 * a changed token to the relay).
 *
 * `onUpdate` runs for every broadcast whose `seq` is new, and once each time
 * the channel is joined again after being cut (so the page catches up on
 * whatever it missed). The state says whether the page is live.
 */
export type LiveState = 'connecting' | 'live' | 'reconnecting'

/**
 * realtime-js requires an API key (Supabase's anon key) in the URL; the local
 * relay identifies nobody by it: the join's access token decides.
 */
export const LOCAL_API_KEY = 'local'

/** A token is renewed when less than this is left of it. */
const RENEW_BEFORE_MS = 60_000

export function useLiveTopic(topic: string, onUpdate: () => void): LiveState {
	const [state, setState] = useState<LiveState>('connecting')
	const latest = useRef(onUpdate)
	useEffect(() => {
		latest.current = onUpdate
	})

	useEffect(() => {
		let cancelled = false
		let cleanup = () => {}
		let token: { token: string; expiresAt: number } | null = null
		const accessToken = async () => {
			if (!token || token.expiresAt - Date.now() < RENEW_BEFORE_MS) {
				const response = await fetch('/api/realtime/token', { credentials: 'same-origin', cache: 'no-store' })
				if (!response.ok) return null
				token = (await response.json()) as { token: string; expiresAt: number }
			}
			return token.token
		}
		const start = async () => {
			const { RealtimeClient } = await import('@supabase/realtime-js')
			if (cancelled) return
			const endpoint = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/realtime/v1`
			const client = new RealtimeClient(endpoint, { accessToken, params: { apikey: LOCAL_API_KEY } })
			// The join carries the token: have it before subscribing.
			await client.setAuth()
			if (cancelled) return client.disconnect()
			let lastSeq = 0
			let joinedBefore = false
			const channel = client
				.channel(topic, { config: { private: true } })
				.on('broadcast', { event: 'update' }, (message: { payload?: { seq?: number } }) => {
					const seq = Number(message.payload?.seq ?? 0)
					if (seq && seq <= lastSeq) return
					lastSeq = seq
					latest.current()
				})
				.subscribe((status) => {
					if (cancelled) return
					if (status === 'SUBSCRIBED') {
						setState('live')
						if (joinedBefore) latest.current()
						joinedBefore = true
					} else setState('reconnecting')
				})
			cleanup = () => {
				void client.removeChannel(channel)
				client.disconnect()
			}
		}
		// Without live updates the page is still right after every action and on reload.
		start().catch(() => setState('reconnecting'))
		return () => {
			cancelled = true
			cleanup()
		}
	}, [topic])

	return state
}
