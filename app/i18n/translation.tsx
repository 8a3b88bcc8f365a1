import { createContext, useContext, useMemo, type ReactNode } from 'react'
import { useTranslation as useI18nextTranslation, type UseTranslationResponse } from 'react-i18next'

type Translation = UseTranslationResponse<'translation', undefined>

const TranslationContext = createContext<Translation | null>(null)

/**
 * The page's translation, looked up once (app/root.tsx's Layout) and read by
 * every component through `useTranslation` below. react-i18next's own hook
 * copies the whole i18next instance for each component that calls it the
 * first time, which on the server is every call: a session page with 200
 * dares made a thousand copies, a fifth of its render time. A text without
 * options is looked up once per page and language: a list repeats its
 * buttons' and labels' texts on every row (ADR 004).
 */
export function TranslationProvider({ children }: { children: ReactNode }) {
	const translation = useI18nextTranslation()
	const value = useMemo(() => {
		// The instance's own t: react-i18next's is i18next's getFixedT, which copies every option of the
		// instance on each call to the same effect (one language, one namespace here).
		const { i18n } = translation
		// (No instance at all, as in a component test without one: react-i18next's stand-in t.)
		const t = (typeof i18n?.t === 'function' ? i18n.t.bind(i18n) : translation.t) as unknown as (...args: unknown[]) => string
		const plain = new Map<string, string>()
		const remembered = ((key: unknown, ...rest: unknown[]) => {
			if (rest.length > 0 || typeof key !== 'string') return t(key, ...rest)
			let text = plain.get(key)
			if (text === undefined) {
				text = t(key)
				plain.set(key, text)
			}
			return text
		}) as unknown as Translation['t']
		return Object.assign([remembered, translation.i18n, translation.ready], { t: remembered, i18n: translation.i18n, ready: translation.ready }) as Translation
	}, [translation])
	return <TranslationContext.Provider value={value}>{children}</TranslationContext.Provider>
}

/** `t` and `i18n` for the page's language (react-i18next's `useTranslation()`, once per page). */
export function useTranslation(): Translation {
	const translation = useContext(TranslationContext)
	if (!translation) throw new Error('useTranslation is used outside TranslationProvider (app/root.tsx)')
	return translation
}
