// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { createRoutesStub, Form, Outlet, redirect, useLoaderData } from 'react-router'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { AccountGate } from './gate.server'
import { resources } from '#locales/index'
import { AuthDialogProvider, useAuthDialog } from './auth-dialog'
import { GatedActionProvider, readinessOf, useGatedAction } from './gated-action'
import { AppToaster } from '#app/components/toasts'
import { testI18n, Translated } from '#tests/support/components'

/**
 * The client half of a gated action, with the real sign-in dialog and the
 * real React Router (its test stub): only the server is stood in for by the
 * stub's loader and actions, whose answers the tests set (the server half,
 * requireReadyAccount, has its own tests against a real database in
 * tests/auth/require-account.test.ts). The end-to-end journeys come with
 * the first gated feature (boosting, writing a dare, voting).
 */

const en = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], resources.en.translation) as string

type Account = { gate: AccountGate } | null
let account: Account
/** What the stubbed /en/login action signs the visitor in as. */
let signsInAs: Account
const action = vi.fn()

beforeEach(() => {
	account = null
	signsInAs = { gate: null }
	action.mockReset()
	// happy-dom's dialog has no top layer; what the tests need is open/close and the close event.
	HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
		this.open = true
	}
})
afterEach(cleanup)

function Root() {
	const data = useLoaderData<{ account: Account }>()
	return (
		<AuthDialogProvider lang="en">
			<GatedActionProvider readiness={readinessOf(data.account)}>
				<Outlet />
			</GatedActionProvider>
		</AuthDialogProvider>
	)
}

function SessionPage() {
	const gated = useGatedAction()
	const openAuthDialog = useAuthDialog()
	return (
		<>
			{/* Stands in for the header's "Sign in". */}
			<button type="button" onClick={() => openAuthDialog?.()}>
				Header sign-in
			</button>
			<button type="button" onClick={() => gated('vote', action)}>
				Vote
			</button>
			{/* Stands in for the terms dialog's "Accept". */}
			<Form method="post" action="/en/accept-terms">
				<button type="submit">Accept terms</button>
			</Form>
		</>
	)
}

async function renderApp() {
	const i18n = await testI18n()
	const Stub = createRoutesStub([
		{
			path: '/',
			Component: Root,
			HydrateFallback: () => null,
			loader: () => ({ account }),
			children: [
				{ path: 'en', Component: SessionPage },
				{
					path: 'en/login',
					action: () => {
						account = signsInAs
						return redirect('/en')
					},
				},
				{
					path: 'en/accept-terms',
					action: () => {
						account = { gate: null }
						return redirect('/en')
					},
				},
			],
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en']} />
			<AppToaster />
		</Translated>,
	)
	await screen.findByRole('button', { name: 'Vote' })
}

async function signInThroughDialog() {
	const dialog = await screen.findByRole('dialog')
	// No provider configured here: the e-mail form shows at once.
	fireEvent.change(within(dialog).getByLabelText(en('auth.email')), { target: { value: 'ada@example.com' } })
	fireEvent.change(within(dialog).getByLabelText(en('auth.password')), { target: { value: 'correct horse' } })
	fireEvent.click(within(dialog).getByRole('button', { name: en('auth.sign-in') }))
}

test('a signed-in viewer with a finished account: the action runs at once, no dialog', async () => {
	account = { gate: null }
	await renderApp()
	fireEvent.click(screen.getByRole('button', { name: 'Vote' }))
	expect(action).toHaveBeenCalledTimes(1)
	expect(screen.queryByRole('dialog')).toBeNull()
})

test('a visitor: the sign-in dialog opens, and the action runs once they have signed in', async () => {
	await renderApp()
	fireEvent.click(screen.getByRole('button', { name: 'Vote' }))
	expect(action).not.toHaveBeenCalled()
	await signInThroughDialog()
	await waitFor(() => expect(action).toHaveBeenCalledTimes(1))
	expect(screen.queryByRole('dialog')).toBeNull()
	// Ready now: the next click runs directly, and only once.
	fireEvent.click(screen.getByRole('button', { name: 'Vote' }))
	expect(action).toHaveBeenCalledTimes(2)
})

test('a visitor who closes the sign-in dialog gets the must-log-in toast, and the action is forgotten', async () => {
	await renderApp()
	fireEvent.click(screen.getByRole('button', { name: 'Vote' }))
	const dialog = await screen.findByRole('dialog')
	act(() => {
		;(dialog as HTMLDialogElement).close()
	})
	expect(await screen.findByText(en('gate.must-log-in-vote'))).toBeTruthy()
	// Signing in later, from the header, does not run the dismissed action.
	fireEvent.click(screen.getByRole('button', { name: 'Header sign-in' }))
	await signInThroughDialog()
	await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
	await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
	expect(action).not.toHaveBeenCalled()
})

test('signed in but owing the terms: the action waits for them, then runs', async () => {
	signsInAs = { gate: 'terms' }
	await renderApp()
	fireEvent.click(screen.getByRole('button', { name: 'Vote' }))
	await signInThroughDialog()
	await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
	expect(action).not.toHaveBeenCalled()
	// A click while the terms are owed waits too (and replaces nothing twice).
	fireEvent.click(screen.getByRole('button', { name: 'Vote' }))
	expect(screen.queryByRole('dialog')).toBeNull()
	fireEvent.click(screen.getByRole('button', { name: 'Accept terms' }))
	await waitFor(() => expect(action).toHaveBeenCalledTimes(1))
})
