import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { installChunkErrorReload } from '#app/modules/builds/reload-guard'

/**
 * The page's language is the one the server rendered (<html lang>); its
 * messages come from /_i18n/{locale}/messages.json (docs/product.md §3.2), cached
 * for 24 hours and versioned by content hash.
 */
async function hydrate() {
	const root = document.documentElement
	const lng = root.lang || 'en'
	const version = root.dataset.messagesVersion ?? ''
	const response = await fetch(`/_i18n/${lng}/messages.json?v=${encodeURIComponent(version)}`)
	const translation: Record<string, unknown> = response.ok ? await response.json() : {}
	await i18next.use(initReactI18next).init({
		lng,
		fallbackLng: false,
		resources: { [lng]: { translation } },
		interpolation: { escapeValue: false },
		react: { useSuspense: false },
	})
	startTransition(() => {
		hydrateRoot(
			document,
			<I18nextProvider i18n={i18next}>
				<StrictMode>
					<HydratedRouter />
				</StrictMode>
			</I18nextProvider>,
		)
	})
}

// A chunk that fails to load after a deploy reloads the page once (guarded against loops).
installChunkErrorReload()
void hydrate()
