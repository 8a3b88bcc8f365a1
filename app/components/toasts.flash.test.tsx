// @vitest-environment happy-dom
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { toast as sonnerToast } from 'sonner'
import { afterEach, expect, test } from 'vitest'
import { AccountGateDialog } from '#app/modules/account/account-gate'
import { GATE_DELETE_ACCOUNT_ID } from '#app/modules/account/delete-account'
import type { FlashToast } from '#app/modules/flash/flash-toast'
import { Toasts } from './toasts'
import { testI18n, Translated } from '#tests/support/components'

/**
 * The flash toast of the root loader (Toasts): the server's box that works
 * without JavaScript, and sonner once the page is hydrated. The toaster's
 * own settings are in toasts.test.tsx; what the server puts in the flash
 * (and that it shows once) is the server's, tested over HTTP and end to end.
 *
 * What stays with the browser (tests/e2e/flash.spec.ts): where the box sits
 * (between the header and the page: layout, which happy-dom does not do),
 * and sonner's toaster inside an open modal dialog (happy-dom has no top
 * layer, and its selectors never match `:modal`, which Toasts looks for).
 */

const i18n = await testI18n()
const t = (key: string) => i18n.t(key)

afterEach(() => {
	cleanup()
	// Sonner keeps its toasts for the page's life.
	sonnerToast.dismiss()
	document.body.innerHTML = ''
})

const SIGNED_UP: FlashToast = { type: 'success', message: t('auth.sign-up-success'), description: t('auth.sign-up-success-description'), action: null }
const TERMS_DECLINED: FlashToast = { type: 'error', message: t('account.terms-declined'), description: null, action: 'delete-account' }

function Providers({ children }: { children: React.ReactNode }) {
	return (
		<Translated i18n={i18n}>{children}</Translated>
	)
}

/** The server's HTML for the flash, in the document as a browser without JavaScript has it (nothing runs on it). */
function serverPage(toast: FlashToast): HTMLElement {
	const container = document.createElement('div')
	container.innerHTML = renderToString(
		<Providers>
			<Toasts toast={toast} />
		</Providers>,
	)
	document.body.append(container)
	return container
}

/** The site's stylesheet, as the page links it. */
function withSiteStyles() {
	const style = document.createElement('style')
	style.textContent = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../styles/app.css'), 'utf8')
	document.head.append(style)
	return () => style.remove()
}

test('without JavaScript the flash is in the server’s page: message and description in a polite live region, with a close control named “Close”', () => {
	const page = serverPage(SIGNED_UP)
	const status = within(page).getByRole('status')
	expect(status.getAttribute('aria-live')).toBe('polite')
	expect(within(status).getByText(t('auth.sign-up-success'))).toBeTruthy()
	expect(within(status).getByText(t('auth.sign-up-success-description'))).toBeTruthy()
	const dismiss = within(page).getByRole('checkbox', { name: t('auth.close') }) as HTMLInputElement
	expect(dismiss.checked).toBe(false)
	// The visible control is the checkbox's label.
	expect(within(status).getByTitle(t('auth.close')).getAttribute('for')).toBe(dismiss.id)
})

test('without JavaScript an error flash is an alert, and one that offers account deletion links to it', () => {
	const page = serverPage(TERMS_DECLINED)
	const alert = within(page).getByRole('alert')
	expect(within(alert).getByText(t('account.terms-declined'))).toBeTruthy()
	expect(within(alert).getByRole('link', { name: t('account.delete-account') }).getAttribute('href')).toBe(`#${GATE_DELETE_ACCOUNT_ID}`)
	expect(within(page).queryByRole('status')).toBeNull()
})

test('without JavaScript the close control works: its label ticks the checkbox and the site’s stylesheet hides the flash', () => {
	const removeStyles = withSiteStyles()
	try {
		const page = serverPage(SIGNED_UP)
		const status = within(page).getByRole('status')
		expect(getComputedStyle(status).display).toBe('flex')
		fireEvent.click(within(status).getByTitle(t('auth.close')))
		expect((within(page).getByRole('checkbox', { name: t('auth.close') }) as HTMLInputElement).checked).toBe(true)
		// why: happy-dom recomputes styles only after a change to the DOM, and ticking a checkbox is none (a browser
		// restyles at once); an attribute set on <body> makes it recompute. The style is then the stylesheet's.
		document.body.setAttribute('data-restyle', '')
		expect(getComputedStyle(status).display).toBe('none')
	} finally {
		removeStyles()
	}
})

test('without JavaScript a flash that answers an account dialog rendered open stays above the dialog’s dimmed page', () => {
	const removeStyles = withSiteStyles()
	try {
		const Stub = createRoutesStub([
			{
				path: '/en',
				Component: () => (
					<>
						<Toasts toast={{ type: 'error', message: t('validation.username-too-long'), description: null, action: null }} />
						<main>
							<h1>Home</h1>
						</main>
						<AccountGateDialog gate="complete-profile" locale="en" termsVersion="1" />
					</>
				),
			},
		])
		const container = document.createElement('div')
		container.innerHTML = renderToString(
			<Providers>
				<Stub initialEntries={['/en']} />
			</Providers>,
		)
		document.body.append(container)
		const dialog = container.querySelector('dialog.gate-dialog')!
		expect(dialog.hasAttribute('open')).toBe(true)
		const slot = container.querySelector('.flash-slot')!
		// As the end-to-end test compared them: the stacking (the dialog's dimming is a shadow, which hit-testing does not see).
		const layer = (element: Element) => Number(getComputedStyle(element).zIndex)
		expect(layer(slot)).toBeGreaterThan(layer(dialog))
	} finally {
		removeStyles()
	}
})

test('once the page is hydrated, sonner shows the flash with its description, and the server’s box is gone', async () => {
	const container = serverPage(SIGNED_UP)
	expect(container.querySelector('.flash')).not.toBeNull()
	render(
		<Providers>
			<Toasts toast={SIGNED_UP} />
		</Providers>,
		{ container, hydrate: true },
	)
	const shown = await waitFor(
		() => {
			const toast = document.querySelector<HTMLElement>('[data-sonner-toast]')
			expect(toast).not.toBeNull()
			return toast!
		},
		{ timeout: 10_000 },
	)
	expect(container.querySelector('.flash')).toBeNull()
	expect(shown.dataset.type).toBe('success')
	expect(within(shown).getByText(t('auth.sign-up-success'))).toBeTruthy()
	expect(within(shown).getByText(t('auth.sign-up-success-description'))).toBeTruthy()
	// Closable, and named in the page's language.
	fireEvent.click(within(shown).getByRole('button', { name: t('auth.close') }))
	await waitFor(() => expect(document.querySelector('[data-sonner-toast]')).toBeNull())
})

test('with JavaScript an error flash that offers account deletion is sonner’s error toast with that action', async () => {
	render(
		<Providers>
			<Toasts toast={TERMS_DECLINED} />
		</Providers>,
	)
	const shown = await screen.findByText(t('account.terms-declined'), undefined, { timeout: 10_000 })
	const toast = shown.closest<HTMLElement>('[data-sonner-toast]')!
	expect(toast.dataset.type).toBe('error')
	expect(within(toast).getByRole('button', { name: t('account.delete-account') })).toBeTruthy()
	await act(() => Promise.resolve())
	expect(document.querySelector('.flash')).toBeNull()
})
