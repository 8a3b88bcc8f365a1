import { createHash } from 'node:crypto'
import { createInstance, type i18n } from 'i18next'
import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { RemixI18Next } from 'remix-i18next/server'
import { resources } from '#locales/index'
import { getEnv } from '#app/env.server'
import { pageLocale } from './detect.server'
import { DEFAULT_LOCALE, LOCALE_CODES, type Locale } from './locales'

const detector = new RemixI18Next({
	detection: {
		supportedLanguages: [...LOCALE_CODES],
		fallbackLanguage: DEFAULT_LOCALE,
		// One custom step that implements the whole order of docs/product.md §1.2 (prefix for
		// prefixed routes; cookie, browser, domain otherwise).
		order: ['custom'],
		findLocale: async (request) => pageLocale(request, getEnv().LOCALE_DOMAINS),
	},
})

/**
 * One i18next instance per language, made at the first request in it and
 * shared by every request after (remix-i18next's middleware builds and
 * initialises one per request: 12 % of a boost's server time, ADR 004). A
 * request only reads its language's instance; changing an instance's
 * language would change it for every request, so that throws.
 */
const instances = new Map<Locale, Promise<i18n>>()

function instanceFor(locale: Locale): Promise<i18n> {
	let made = instances.get(locale)
	if (!made) {
		made = (async () => {
			const instance = createInstance({
				resources,
				lng: locale,
				supportedLngs: [...LOCALE_CODES],
				fallbackLng: DEFAULT_LOCALE,
				interpolation: { escapeValue: false }, // React escapes
			})
			await instance.init()
			instance.changeLanguage = () => {
				throw new Error(`The ${locale} i18next instance is shared by every request in ${locale}: use getFixedT for another language.`)
			}
			return instance
		})()
		instances.set(locale, made)
	}
	return made
}

const localeContext = createContext<Locale>(DEFAULT_LOCALE)
const instanceContext = createContext<i18n | null>(null)

/** Puts the request's language and its i18next instance on the router context (root middleware). */
export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const locale = (await detector.getLocale(request)) as Locale
	context.set(localeContext, locale)
	context.set(instanceContext, await instanceFor(locale))
	return next()
}

export function getLocale(context: Readonly<RouterContextProvider>): Locale {
	return context.get(localeContext)
}

export function getInstance(context: Readonly<RouterContextProvider>): i18n {
	const instance = context.get(instanceContext)
	if (!instance) throw new Error('getInstance: the i18next middleware has not run for this request')
	return instance
}

/** Content hash of each language's messages, so the browser's 24-hour cache is busted by a deploy. */
export const messagesVersion: Record<Locale, string> = Object.fromEntries(
	LOCALE_CODES.map((code) => [
		code,
		createHash('sha256').update(JSON.stringify(resources[code].translation)).digest('hex').slice(0, 12),
	]),
) as Record<Locale, string>
