import { useEffect } from 'react'
import { track, type AnalyticsEvent, type AnalyticsEvents } from './events'

/**
 * Send `event` once when `when` becomes true, keyed by `onceKey` for this
 * tab (a revalidation or a re-render does not send it again). Nothing is
 * sent without consent (see track).
 */
export function useTrackOnce<E extends AnalyticsEvent>(event: E, properties: AnalyticsEvents[E], when: boolean, onceKey: string): void {
	const serialized = JSON.stringify(properties)
	useEffect(() => {
		if (!when) return
		const key = `tracked:${event}:${onceKey}`
		try {
			if (sessionStorage.getItem(key)) return
			sessionStorage.setItem(key, '1')
		} catch {
			// No storage: send anyway (at worst twice).
		}
		track(event, JSON.parse(serialized) as AnalyticsEvents[E])
	}, [event, serialized, when, onceKey])
}
