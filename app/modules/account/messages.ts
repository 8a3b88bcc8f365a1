import type { AuthFailure } from './types'

/**
 * An AuthFailure as the one string forms carry (Conform's form errors, a
 * toast): its code, and for a wait the seconds, as `error-rate-limited:840`.
 * translateError (app/components/forms.tsx) turns it into the sentence.
 */
export function failureMessage(error: AuthFailure): string {
	const seconds = Number(error.reasons?.[0])
	if (error.code === 'error-rate-limited' && Number.isInteger(seconds) && seconds > 0) return `${error.code}:${seconds}`
	return error.code
}

/** How long to wait, in the reader's language: "45 seconds", "14 minutes". */
export function formatWait(seconds: number, locale: string): string {
	const minutes = Math.ceil(seconds / 60)
	const [value, unit] = seconds < 90 ? [seconds, 'second'] : [minutes, 'minute']
	return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value)
}
