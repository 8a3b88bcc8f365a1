import { createInstance, type i18n as I18n } from 'i18next'
import type { ReactNode } from 'react'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { vi } from 'vitest'
import type { Locale } from '#app/i18n/locales'
import { TranslationProvider } from '#app/i18n/translation'
import { resources } from '#locales/index'

/** For component tests (`*.test.tsx` in happy-dom): what the app's root sets up around a page. */

/** An i18next instance in `lang` with the app's messages, as the app's provider configures it. */
export async function testI18n(lang: Locale = 'en'): Promise<I18n> {
	const i18n = createInstance()
	await i18n.use(initReactI18next).init({ lng: lang, resources: { [lang]: resources[lang] }, interpolation: { escapeValue: false } })
	return i18n
}

/**
 * After a file's tests that loaded React Aria's number field: its live
 * announcer (the field's spin buttons announce values) makes its first
 * announcement 100 ms late outside React's act(), and a file that ends
 * sooner would have it write to a document that is gone (an uncaught
 * ReferenceError that fails the run). Destroyed, the late announcement is
 * dropped.
 */
export async function releaseLiveAnnouncer(): Promise<void> {
	const { destroyAnnouncer } = await import('react-aria/private/live-announcer/LiveAnnouncer')
	destroyAnnouncer()
}

/** The app's translation providers around a test's tree. */
export function Translated({ i18n, children }: { i18n: I18n; children: ReactNode }) {
	return (
		<I18nextProvider i18n={i18n}>
			<TranslationProvider>{children}</TranslationProvider>
		</I18nextProvider>
	)
}

/**
 * A spy on HTMLDialogElement.showModal that still calls it. Why: happy-dom's
 * showModal() only sets `open`, so the spy is what tells a modal dialog from
 * one opened with show() or the attribute.
 */
export function spyOnShowModal() {
	return vi.spyOn(HTMLDialogElement.prototype, 'showModal')
}
