import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { installChunkErrorReload } from '#app/modules/builds/reload-guard'

/**
 * The page's language is the one the server rendered (<html lang>); its
 * messages come from /_i18n/{locale}/messages.json (docs/product.md §3.2), cached
 * for 24 hours and versioned by content hash: the address the page names
 * (<html data-messages>) and preloads (app/root.tsx).
 */
async function hydrate() {
	const root = document.documentElement
	const lng = root.lang || 'en'
	const messages = root.dataset.messages ? fetch(root.dataset.messages) : null
	// The first number format of a page loads its language's Intl data (some 15 ms here, four times that on a
	// phone): made in a task of its own while the messages load, not inside hydration's render, where it was
	// the longest task (the session page's rules and the dares' pots format numbers).
	setTimeout(() => new Intl.NumberFormat(lng).format(0), 0)
	const response = await messages
	const translation: Record<string, unknown> = response?.ok ? await response.json() : {}
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
