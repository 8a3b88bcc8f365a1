// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { afterAll, afterEach, beforeEach, expect, test, vi, type MockInstance } from 'vitest'
import { AppToaster } from '#app/components/toasts'
import { StartSessionButton, type LinkedChannel } from './start-session-button'
import { testI18n, Translated, spyOnShowModal, releaseLiveAnnouncer } from '#tests/support/components'

/**
 * The start-session dialog opened from its button (the real button, the
 * dialog's lazily loaded form, React Router's test stub for the form's
 * fetcher).
 *
 * happy-dom's <dialog> is not the browser's: showModal() sets `open` and
 * nothing more. It does not move the focus into the dialog, Escape on it
 * does nothing, and close() does not give the focus back to where it was.
 * Those three moves are the browser's own (this dialog has no focus code of
 * its own) and stay in tests/e2e/dialogs.spec.ts. What is ours is tested
 * here: the button opens the dialog as a modal (showModal, which is what
 * makes the browser move the focus in, close on Escape and return the
 * focus), named by its title; when the browser closes it after Escape (a
 * cancel event, then the close) or the form's Cancel closes it, the app lets
 * the form go, and the button stays the same element in the page, where the
 * browser returns the focus.
 */

const i18n = await testI18n()
const t = (key: string) => i18n.t(key)

let showModal: MockInstance<HTMLDialogElement['showModal']>
beforeEach(() => {
	showModal = spyOnShowModal()
})
afterEach(cleanup)
afterAll(releaseLiveAnnouncer)

const CREATOR: LinkedChannel[] = [{ platform: 'twitch', channel: 'mia_plays' }]

/** What the browser does on Escape in a modal dialog (happy-dom does nothing): the key, a cancelable cancel event, then the close unless it was cancelled. */
function pressEscape(dialog: HTMLDialogElement) {
	fireEvent.keyDown(dialog, { key: 'Escape' })
	if (dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) act(() => dialog.close())
}

/**
 * Home with the button, and the start-session route's loader (what the dialog
 * reads as it opens) and action (what its form sends) as stubs.
 */
function renderHome(channels: LinkedChannel[], { needsAgreement = false }: { needsAgreement?: boolean } = {}) {
	const sent: FormData[] = []
	const Stub = createRoutesStub([
		{
			path: '/en',
			Component: () => (
				<section aria-label="cta">
					<StartSessionButton channels={channels} lang="en" signedIn />
				</section>
			),
		},
		{
			path: '/en/start-session',
			loader: () => ({ channels, needsAgreement }),
			action: async ({ request }) => {
				sent.push(await request.formData())
				return { result: { status: 'error', error: { '': ['error-channel-already-live'] } }, needsAgreement: false }
			},
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en']} />
			<AppToaster />
		</Translated>,
	)
	return sent
}

const startButton = () => within(screen.getByRole('region', { name: 'cta' })).getByRole('button', { name: t('sessions.start') })
const sessionDialog = () => document.querySelector<HTMLDialogElement>('dialog.session-dialog')!

/** Focuses the button and presses Enter on it (which, on a button, the browser turns into a click). */
async function openFrom(trigger: HTMLElement): Promise<HTMLDialogElement> {
	act(() => trigger.focus())
	fireEvent.keyDown(trigger, { key: 'Enter' })
	fireEvent.click(trigger)
	const dialog = (await screen.findByRole('dialog', { name: t('sessions.start-title') }, { timeout: 10_000 })) as HTMLDialogElement
	// The form has loaded inside it.
	await within(dialog).findByLabelText(t('sessions.title'))
	return dialog
}

test('a creator’s “Start a session” opens the start-session dialog as a modal, named by its title, with the form inside', async () => {
	renderHome(CREATOR)
	const trigger = startButton()
	expect(sessionDialog().open).toBe(false)
	const dialog = await openFrom(trigger)
	expect(dialog).toBe(sessionDialog())
	expect(dialog.open).toBe(true)
	expect(showModal.mock.contexts).toEqual([dialog])
	expect(within(dialog).getByRole('button', { name: t('sessions.submit') })).toBeTruthy()
	expect(within(dialog).getByRole('button', { name: t('sessions.cancel') })).toBeTruthy()
})

test('Escape (the browser’s cancel, then close): the dialog closes, its form goes, the button is still the same element in the page, and opens it again', async () => {
	renderHome(CREATOR)
	const trigger = startButton()
	const dialog = await openFrom(trigger)
	pressEscape(dialog)
	await waitFor(() => expect(within(dialog).queryByLabelText(t('sessions.title'))).toBeNull())
	expect(dialog.open).toBe(false)
	// The element the browser gives the focus back to is the one that had it, still here and focusable.
	expect(startButton()).toBe(trigger)
	expect(trigger.tabIndex).toBe(0)
	const again = await openFrom(trigger)
	expect(again.open).toBe(true)
	expect(showModal).toHaveBeenCalledTimes(2)
})

test('the form’s Cancel closes it the way Escape ends: through the dialog’s close, so the browser returns the focus', async () => {
	renderHome(CREATOR)
	const trigger = startButton()
	const dialog = await openFrom(trigger)
	// why: the browser gives the focus back in close(); a dialog whose content only went away would keep the focus on nothing. The spy calls close().
	const close = vi.spyOn(dialog, 'close')
	fireEvent.click(within(dialog).getByRole('button', { name: t('sessions.cancel') }))
	await waitFor(() => expect(within(dialog).queryByLabelText(t('sessions.title'))).toBeNull())
	expect(close).toHaveBeenCalledTimes(1)
	expect(dialog.open).toBe(false)
	expect(startButton()).toBe(trigger)
})

test('a creator who owes the creator agreement finds it in the form from the first view, with the document’s link; sent ticked, it goes with the form', async () => {
	const sent = renderHome(CREATOR, { needsAgreement: true })
	const dialog = await openFrom(startButton())
	const box = within(dialog).getByRole('group', { name: t('sessions.agreement-title') })
	expect(within(box).getByRole('link', { name: t('sessions.agreement-read') }).getAttribute('href')).toBe('/en/creator-agreement')
	const tick = within(box).getByRole('checkbox', { name: t('sessions.agreement-checkbox') }) as HTMLInputElement
	expect(tick.checked).toBe(false)
	fireEvent.change(within(dialog).getByLabelText(t('sessions.title')), { target: { value: 'Late show' } })

	// Not ticked: the form says so at the box and sends nothing.
	fireEvent.click(within(dialog).getByRole('button', { name: t('sessions.submit') }))
	expect(await within(box).findByText(t('errors.error-creator-agreement-required'))).toBeTruthy()
	expect(tick.getAttribute('aria-invalid')).toBe('true')
	expect(sent).toHaveLength(0)

	// Ticked: one sending that accepts and starts.
	fireEvent.click(tick)
	fireEvent.click(within(dialog).getByRole('button', { name: t('sessions.submit') }))
	await waitFor(() => expect(sent).toHaveLength(1))
	expect(sent[0]!.get('acceptAgreement')).toBe('accept')
	expect(sent[0]!.get('title')).toBe('Late show')
	// The server's refusal comes back to the form.
	expect(await within(dialog).findByText(t('errors.error-channel-already-live'))).toBeTruthy()
})

test('a creator who has accepted it sees no box', async () => {
	renderHome(CREATOR)
	const dialog = await openFrom(startButton())
	expect(within(dialog).queryByRole('checkbox')).toBeNull()
	expect(within(dialog).queryByText(t('sessions.agreement-title'))).toBeNull()
})

test('a signed-in visitor without a linked channel gets the not-a-creator toast, and no dialog', async () => {
	renderHome([])
	fireEvent.click(startButton())
	expect(await screen.findByText(t('errors.error-not-a-creator'), undefined, { timeout: 10_000 })).toBeTruthy()
	expect(screen.getByText(t('sessions.not-creator'))).toBeTruthy()
	expect(screen.getByRole('button', { name: t('sessions.link-channels') })).toBeTruthy()
	expect(showModal).not.toHaveBeenCalled()
	expect(sessionDialog().open).toBe(false)
})

test('before hydration (and without JavaScript) it is a link to the start-session page', () => {
	const Stub = createRoutesStub([{ path: '/en', Component: () => <StartSessionButton channels={CREATOR} lang="en" signedIn /> }])
	const html = renderToString(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en']} />
		</Translated>,
	)
	expect(html).toMatch(new RegExp(`^<a class="button button--primary" href="/en/start-session"[^>]*>${t('sessions.start')}</a>$`))
	expect(html).not.toContain('<dialog')
})
