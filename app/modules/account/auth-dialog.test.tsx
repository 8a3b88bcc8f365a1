// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { createRoutesStub, Outlet } from 'react-router'
import { afterEach, beforeEach, expect, test, vi, type MockInstance } from 'vitest'
import { AuthDialogProvider } from './auth-dialog'
import { SiteHeader } from '#app/components/site-header'
import { testI18n, Translated, spyOnShowModal } from '#tests/support/components'

/**
 * The sign-in dialog opened from the header's "Sign in" (the real header,
 * the real provider, the dialog's lazily loaded content).
 *
 * happy-dom's <dialog> is not the browser's: showModal() sets `open` and
 * nothing more. It does not move the focus into the dialog, Escape on it
 * does nothing, and close() does not give the focus back to where it was.
 * Those three moves are the browser's own (this dialog has no focus code of
 * its own) and stay in tests/e2e/dialogs.spec.ts. What is ours is tested
 * here: the trigger opens the dialog as a modal (showModal, which is what
 * makes the browser move the focus in, close on Escape and return the
 * focus), named by its title, with the controls the focus moves to inside;
 * and when the browser closes it after Escape (a cancel event, then the
 * close), the app lets it go while the trigger stays the same element in
 * the page, where the browser returns the focus.
 */

const i18n = await testI18n()
const t = (key: string) => i18n.t(key)

let showModal: MockInstance<HTMLDialogElement['showModal']>
beforeEach(() => {
	showModal = spyOnShowModal()
})
afterEach(cleanup)

/** What the browser does on Escape in a modal dialog (happy-dom does nothing): the key, a cancelable cancel event, then the close unless it was cancelled. */
function pressEscape(dialog: HTMLDialogElement) {
	fireEvent.keyDown(dialog, { key: 'Escape' })
	if (dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) act(() => dialog.close())
}

async function renderTermsPage() {
	const Stub = createRoutesStub([
		{
			path: '/',
			Component: () => (
				<AuthDialogProvider lang="en">
					<SiteHeader locale="en" account={null} />
					<Outlet />
				</AuthDialogProvider>
			),
			children: [
				{ path: 'en/terms', Component: () => <h1>Terms</h1> },
				{ path: 'en/login', Component: () => <h1>The sign-in page</h1> },
			],
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en/terms']} />
		</Translated>,
	)
	await screen.findByRole('heading', { name: 'Terms' })
}

/** The header's "Sign in" (one for both layouts). */
const signInLink = () => within(screen.getByRole('banner')).getByRole('link', { name: t('nav.sign-in') })

/** Focuses the trigger and presses Enter on it (which, on a link, the browser turns into a click). */
async function openFrom(trigger: HTMLElement): Promise<HTMLDialogElement> {
	act(() => trigger.focus())
	fireEvent.keyDown(trigger, { key: 'Enter' })
	fireEvent.click(trigger)
	return (await screen.findByRole('dialog', { name: t('pages.login.title') })) as HTMLDialogElement
}

test('the header’s “Sign in” opens the sign-in dialog in place, as a modal named by its title, with its controls inside', async () => {
	await renderTermsPage()
	const trigger = signInLink()
	const dialog = await openFrom(trigger)
	// In place: the link's page is not where the visitor went.
	expect(screen.queryByRole('heading', { name: 'The sign-in page' })).toBeNull()
	expect(dialog.tagName).toBe('DIALOG')
	expect(dialog.open).toBe(true)
	expect(showModal.mock.contexts).toEqual([dialog])
	// Where the browser puts the focus (the first control, nothing has autofocus): the dialog's own close button.
	const controls = dialog.querySelectorAll<HTMLElement>('button, a[href], input:not([type="hidden"]), select, textarea, summary, [tabindex]')
	expect(controls[0]).toBe(within(dialog).getByRole('button', { name: t('auth.close') }))
	expect(dialog.querySelector('[autofocus]')).toBeNull()
	// No provider configured here: the e-mail form is the one way in, shown at once (auth-forms.test.tsx).
	expect(within(dialog).getByLabelText(t('auth.email'))).toBeTruthy()
	expect(within(dialog).queryByText(t('auth.other-methods'))).toBeNull()
})

test('Escape (the browser’s cancel, then close): the dialog goes, the trigger is still the same element in the page, and opens it again', async () => {
	await renderTermsPage()
	const trigger = signInLink()
	const dialog = await openFrom(trigger)
	pressEscape(dialog)
	await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
	expect(dialog.isConnected).toBe(false)
	// The element the browser gives the focus back to is the one that had it, still here and focusable.
	expect(signInLink()).toBe(trigger)
	expect(trigger.isConnected).toBe(true)
	expect(trigger.tabIndex).toBe(0)
	const again = await openFrom(trigger)
	expect(again.open).toBe(true)
	expect(showModal).toHaveBeenCalledTimes(2)
})

test('its close button closes it the way Escape ends: through the dialog’s close, so the browser returns the focus', async () => {
	await renderTermsPage()
	const trigger = signInLink()
	const dialog = await openFrom(trigger)
	// why: the browser gives the focus back in close(); a dialog only taken out of the page would leave it on <body>. The spy calls close().
	const close = vi.spyOn(dialog, 'close')
	fireEvent.click(within(dialog).getByRole('button', { name: t('auth.close') }))
	await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
	expect(close).toHaveBeenCalledTimes(1)
	expect(signInLink()).toBe(trigger)
})
