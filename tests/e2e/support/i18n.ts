import { resources } from '../../../locales/index'
import type { Locale } from '../../../app/i18n/locales'

export const LANGS = ['en', 'de', 'es', 'tr'] as const satisfies readonly Locale[]

type Tree = { [key: string]: string | Tree }

/** The translation of a dotted key, with {{placeholders}} filled in, as the app renders it. */
export function tr(locale: Locale, key: string, values: Record<string, string | number> = {}): string {
	let node: string | Tree = resources[locale].translation as unknown as Tree
	for (const part of key.split('.')) {
		if (typeof node === 'string' || !(part in node)) throw new Error(`missing key ${key} in ${locale}`)
		node = node[part]!
	}
	if (typeof node !== 'string') throw new Error(`${key} is not a string in ${locale}`)
	return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`))
}

/** The document title the app sets for a page title. */
export function documentTitle(locale: Locale, titleKey: string): string {
	return `${tr(locale, titleKey)} · ${tr(locale, 'app.name')}`
}

/**
 * Where a journey runs in two languages, the first runs with JavaScript and
 * the second without: each journey still runs in both modes, and each of the
 * two languages in one (docs/decisions/043-tests-by-need.md). Every
 * language's texts on every page are held by the request-level tests and the
 * locales' key check.
 */
export function inOneMode(languageIndex: number): { tag: '@js-only' | '@nojs-only' } {
	return { tag: languageIndex === 0 ? '@js-only' : '@nojs-only' }
}
