import { createContext, lazy, Suspense, useCallback, useContext, useState, type ReactNode } from 'react'
import { useLocation } from 'react-router'
import type { Variant } from './auth-dialog-content'

type OpenOptions = { variant?: Variant; onDismiss?: () => void }

const AuthDialog = lazy(() => import('./auth-dialog-content'))

const AuthDialogContext = createContext<((options?: OpenOptions) => void) | null>(null)

/**
 * Opens the sign-in/sign-up dialog (docs/product.md §3.5). Called from click
 * handlers, which only run once JavaScript has taken over; before that (and
 * without JavaScript) the links to /login and /register are the way in.
 */
export function useAuthDialog() {
	return useContext(AuthDialogContext)
}

/**
 * The switchable sign-in/sign-up dialog. Its forms post to the /login and
 * /register actions through fetchers, so errors show in place; a successful
 * sign-in redirects, which navigates and closes it. Closing it unfinished
 * runs the opener's fallback (gated actions, docs/product.md §2.6). The dialog's code
 * (its forms and their validation) is fetched when it first opens, so no
 * page carries it in its first load (issue 11's JavaScript budget).
 */
export function AuthDialogProvider({ lang, children }: { lang: string; children: ReactNode }) {
	const [state, setState] = useState<{
		variant: Variant
		onDismiss?: () => void
		at: string
	} | null>(null)
	const location = useLocation()
	const open = useCallback(
		(options: OpenOptions = {}) =>
			setState({
				variant: options.variant ?? 'sign-in',
				onDismiss: options.onDismiss,
				at: location.key,
			}),
		[location.key],
	)
	// A navigation (a successful sign-in redirects) leaves the dialog behind.
	const visible = state !== null && state.at === location.key
	return (
		<AuthDialogContext.Provider value={open}>
			{children}
			{visible ? (
				<Suspense fallback={null}>
					<AuthDialog
						lang={lang}
						variant={state.variant}
						onSwitch={(variant) => setState({ ...state, variant })}
						onClose={() => {
							state.onDismiss?.()
							setState(null)
						}}
					/>
				</Suspense>
			) : null}
		</AuthDialogContext.Provider>
	)
}
