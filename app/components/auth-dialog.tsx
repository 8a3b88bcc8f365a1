import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useFetcher, useLocation, type Form } from 'react-router'
import { SignInMethods, SignUpForm, type SignInActionData, type SignUpActionData } from './auth-forms'

type Variant = 'sign-in' | 'sign-up'
type OpenOptions = { variant?: Variant; onDismiss?: () => void }

const AuthDialogContext = createContext<((options?: OpenOptions) => void) | null>(null)

/**
 * Opens the sign-in/sign-up dialog (spec section 2). Called from click
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
 * runs the opener's fallback (the spec's gated actions).
 */
export function AuthDialogProvider({ lang, children }: { lang: string; children: ReactNode }) {
	const [state, setState] = useState<{ variant: Variant; onDismiss?: () => void; at: string } | null>(null)
	const location = useLocation()
	const open = useCallback(
		(options: OpenOptions = {}) => setState({ variant: options.variant ?? 'sign-in', onDismiss: options.onDismiss, at: location.key }),
		[location.key],
	)
	// A navigation (a successful sign-in redirects) leaves the dialog behind.
	const visible = state !== null && state.at === location.key
	return (
		<AuthDialogContext.Provider value={open}>
			{children}
			{visible ? (
				<AuthDialog
					lang={lang}
					variant={state.variant}
					onSwitch={(variant) => setState({ ...state, variant })}
					onClose={() => {
						state.onDismiss?.()
						setState(null)
					}}
				/>
			) : null}
		</AuthDialogContext.Provider>
	)
}

function AuthDialog({ lang, variant, onSwitch, onClose }: { lang: string; variant: Variant; onSwitch: (v: Variant) => void; onClose: () => void }) {
	const { t } = useTranslation()
	const ref = useRef<HTMLDialogElement>(null)
	const location = useLocation()
	const signIn = useFetcher<SignInActionData>({ key: 'auth-dialog-sign-in' })
	const signUp = useFetcher<SignUpActionData>({ key: 'auth-dialog-sign-up' })
	const redirectTo = location.pathname + location.search

	useEffect(() => {
		const dialog = ref.current
		if (!dialog) return
		if (!dialog.open) dialog.showModal()
		dialog.addEventListener('close', onClose)
		return () => dialog.removeEventListener('close', onClose)
	}, [onClose])

	const forms = useMemo(
		() => ({ signIn: signIn.Form as unknown as typeof Form, signUp: signUp.Form as unknown as typeof Form }),
		[signIn.Form, signUp.Form],
	)
	const title = variant === 'sign-in' ? t('pages.login.title') : t('pages.register.title')
	return (
		<dialog ref={ref} className="gate-dialog auth-dialog" aria-labelledby="auth-dialog-title">
			<div className="auth-dialog__header">
				<h2 id="auth-dialog-title">{title}</h2>
				<button type="button" className="button button--ghost dialog-close" onClick={() => ref.current?.close()} aria-label={t('auth.close')}>
					×
				</button>
			</div>
			<div className="stack">
				{variant === 'sign-in' ? (
					<SignInMethods lang={lang} redirectTo={redirectTo} actionData={signIn.data} FormComponent={forms.signIn} onSwitch={() => onSwitch('sign-up')} />
				) : (
					<SignUpForm lang={lang} redirectTo={redirectTo} actionData={signUp.data} FormComponent={forms.signUp} onSwitch={() => onSwitch('sign-in')} />
				)}
			</div>
		</dialog>
	)
}
