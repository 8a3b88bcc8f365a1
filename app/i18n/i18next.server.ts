import { createHash } from 'node:crypto'
import { resources } from '#locales/index'
import { createI18nextMiddleware } from 'remix-i18next/middleware'
import { getEnv } from '#app/env.server'
import { pageLocale } from './detect.server'
import { DEFAULT_LOCALE, LOCALE_CODES, type Locale } from './locales'

export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
	detection: {
		supportedLanguages: [...LOCALE_CODES],
		fallbackLanguage: DEFAULT_LOCALE,
		// One custom step that implements the spec's whole order (prefix for
		// prefixed routes; cookie, browser, domain otherwise).
		order: ['custom'],
		findLocale: async (request) => pageLocale(request, getEnv().LOCALE_DOMAINS),
	},
	i18next: {
		resources,
		supportedLngs: [...LOCALE_CODES],
		fallbackLng: DEFAULT_LOCALE,
		interpolation: { escapeValue: false }, // React escapes
	},
})

/** Content hash of each language's messages, so the browser's 24-hour cache is busted by a deploy. */
export const messagesVersion: Record<Locale, string> = Object.fromEntries(
	LOCALE_CODES.map((code) => [
		code,
		createHash('sha256').update(JSON.stringify(resources[code].translation)).digest('hex').slice(0, 12),
	]),
) as Record<Locale, string>
