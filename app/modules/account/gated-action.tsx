import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { toast } from '#app/components/toast'
import type { GatedReason } from './gate'
import { useAuthDialog } from './auth-dialog'

/**
 * Where the viewer stands for an action that needs an account
 * (docs/product.md §2.6: a visitor must sign in to boost, create a dare or vote):
 * `ready`: signed in, username chosen, current terms accepted;
 * `sign-in`: nobody signed in;
 * `account-steps`: signed in, but the username or terms dialog is still owed.
 */
export type Readiness = 'ready' | 'sign-in' | 'account-steps'

/** The readiness of the root loader's account (null: nobody signed in; `gate`: the step still owed). */
export function readinessOf(account: { gate: unknown } | null | undefined): Readiness {
	return !account ? 'sign-in' : account.gate ? 'account-steps' : 'ready'
}

type Gate = {
	readiness: Readiness
	/** The action to run once the viewer is ready; null forgets it. */
	setPending: (run: (() => void) | null) => void
}

const GateContext = createContext<Gate | null>(null)

/**
 * Holds the one action waiting for its viewer to be ready, and runs it when
 * they are: after signing in through the dialog (its redirect is a client
 * navigation, so this provider, in the root layout, keeps the action) and
 * after the username and terms dialogs. A full page load (a provider's
 * sign-in, a confirmation link) forgets it: the visitor is back on the same
 * page and does it again (docs/decisions/010-gated-actions.md).
 */
export function GatedActionProvider({ readiness, children }: { readiness: Readiness; children: ReactNode }) {
	const pending = useRef<(() => void) | null>(null)
	useEffect(() => {
		if (readiness !== 'ready' || !pending.current) return
		const run = pending.current
		pending.current = null
		run()
	}, [readiness])
	const gate = useMemo<Gate>(
		() => ({
			readiness,
			setPending: (run) => {
				pending.current = run
			},
		}),
		[readiness],
	)
	return <GateContext.Provider value={gate}>{children}</GateContext.Provider>
}

/**
 * Runs an action that needs an account: at once when the viewer is ready;
 * otherwise it opens the sign-in dialog (or waits for the username and
 * terms dialogs) and runs it when they are done. Closing the sign-in
 * dialog instead shows the must-log-in toast for `reason` (docs/product.md §2.6).
 *
 * Without JavaScript the same action is a form post, and the server half
 * (requireReadyAccount) sends the visitor to sign in and back.
 */
export function useGatedAction() {
	const gate = useContext(GateContext)
	// Failing closed: without the provider nobody could tell whether the viewer may.
	if (!gate) throw new Error('useGatedAction needs a GatedActionProvider (app/root.tsx)')
	const openAuthDialog = useAuthDialog()
	const { t } = useTranslation()
	return useCallback(
		(reason: GatedReason, run: () => void) => {
			if (gate.readiness === 'ready') {
				run()
				return
			}
			gate.setPending(run)
			if (gate.readiness !== 'sign-in') return // the username or terms dialog is up
			const mustLogIn = () => {
				gate.setPending(null)
				toast.error(t(`gate.must-log-in-${reason}`))
			}
			if (openAuthDialog) openAuthDialog({ variant: 'sign-in', onDismiss: mustLogIn })
			else mustLogIn()
		},
		[gate, openAuthDialog, t],
	)
}
