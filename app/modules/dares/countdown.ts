import { useEffect, useState } from 'react'

/** Whole seconds from now until `endsAt` (never below 0). */
export function secondsUntil(endsAt: string, now = Date.now()): number {
	return Math.max(0, Math.ceil((new Date(endsAt).getTime() - now) / 1000))
}

/** A vote's time left as the dare card, the vote bar and the overlay show it: "2:05". */
export function formatCountdown(seconds: number): string {
	return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

/** The seconds until `endsAt`, ticking once a second. */
export function useSecondsLeft(endsAt: string) {
	const [seconds, setSeconds] = useState(() => secondsUntil(endsAt))
	useEffect(() => {
		const timer = setInterval(() => setSeconds(secondsUntil(endsAt)), 1000)
		return () => clearInterval(timer)
	}, [endsAt])
	return seconds
}

/**
 * When a vote ends, for a page without JavaScript (nothing ticks there). The
 * server cannot know the reader's time zone, so it says which one it uses
 * (as the confirmation panel's resend time does); the language decides the format.
 */
export function formatEndTime(endsAt: string, locale: string): string {
	return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', second: '2-digit', timeZone: 'UTC', timeZoneName: 'short' }).format(new Date(endsAt))
}
