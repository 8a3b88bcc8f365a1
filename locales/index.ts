import type { Locale } from '#app/i18n/locales'
import de from './de'
import en from './en'
import es from './es'
import tr from './tr'

export type { Messages } from './en'

export const resources = {
	en: { translation: en },
	de: { translation: de },
	es: { translation: es },
	tr: { translation: tr },
} satisfies Record<Locale, { translation: typeof en }>
