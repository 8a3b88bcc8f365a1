import { formatWait } from '#app/modules/account/messages'

/**
 * A validation key or an `error-…` code, optionally with the seconds to wait
 * (`error-rate-limited:840`, see failureMessage), as the sentence to show.
 */
export function translateError(t: (key: string, options?: Record<string, unknown>) => string, message: string, locale = 'en'): string {
	if (message.startsWith('validation.')) return t(message)
	if (message.startsWith('error-')) {
		const [code, seconds] = message.split(':')
		const wait = Number(seconds)
		const key = `errors.${code}`
		const translated = Number.isInteger(wait) && wait > 0 ? t(`${key}-wait`, { wait: formatWait(wait, locale) }) : t(key)
		return translated === key || translated === `${key}-wait` ? t('errors.unknown-error') : translated
	}
	return t('errors.unknown-error')
}
