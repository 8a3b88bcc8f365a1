import { lazy, Suspense, useEffect, useState } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from '#app/i18n/translation'
import { trackKeyEvent } from '#app/modules/analytics/events'
import { useHydrated } from '#app/utils/use-hydrated'
import { useTopModalDialog } from '#app/utils/use-top-modal-dialog'
import { GATE_DELETE_ACCOUNT_ID, openDeleteAccount } from '#app/modules/account/delete-account'
import type { FlashToast } from '#app/modules/flash/flash-toast'
import { loadSonner, markToasterListening, onSonnerRequested, sonnerRequested, toast as showToast } from './toast'

const Toaster = lazy(() => loadSonner().then((module) => ({ default: module.Toaster })))

/** Rendered after the Toaster in one Suspense boundary: its effect runs once sonner's has subscribed. */
function ToasterListening() {
	useEffect(() => markToasterListening(), [])
	return null
}

/**
 * The toast defaults (docs/product.md §15.1). Sonner takes the first four as
 * props; the width is its `--width` CSS variable on the toaster (set here so
 * it does not rest on sonner's own default), and the swipe distance that
 * dismisses a toast is sonner's fixed SWIPE_THRESHOLD, 45 px, which it offers
 * no option for (toasts.test.tsx fails if an upgrade changes it).
 */
export const TOASTER_DEFAULTS = {
	position: 'bottom-right',
	visibleToasts: 3,
	duration: 4000,
	gap: 14,
	width: 356,
	swipeThreshold: 45,
} as const

/**
 * Sonner's Toaster with the defaults of docs/product.md §15.1. A modal `<dialog>` sits in the
 * browser's top layer and makes the rest of the page inert, so a toaster
 * outside it shows dimmed under the backdrop and cannot be clicked (a popover
 * of its own would be inert too). While a modal dialog is open the toaster
 * therefore lives inside it; sonner replays the toasts still showing when it
 * moves. Sonner itself is fetched with the first toast (./toast.ts); until
 * then there is no toaster.
 */
export function AppToaster() {
	const { t } = useTranslation()
	const host = useTopModalDialog()
	const [wanted, setWanted] = useState(sonnerRequested)
	useEffect(() => (wanted ? undefined : onSonnerRequested(() => setWanted(true))), [wanted])
	const { position, visibleToasts, duration, gap, width } = TOASTER_DEFAULTS
	if (!wanted) return null
	const toaster = (
		<Suspense fallback={null}>
			<Toaster
				theme="system"
				position={position}
				visibleToasts={visibleToasts}
				duration={duration}
				gap={gap}
				style={{ '--width': `${width}px` } as React.CSSProperties}
				richColors
				closeButton
				toastOptions={{ closeButtonAriaLabel: t('auth.close') }}
			/>
			<ToasterListening />
		</Suspense>
	)
	return host ? createPortal(toaster, host) : toaster
}

/**
 * Toasts arrive in the root loader (see modules/flash). The server HTML
 * carries the message in an aria-live region under the header, in the page's
 * flow so it covers nothing, with a close control that needs no JavaScript (a
 * checkbox its label ticks); once hydrated, sonner takes over with the
 * defaults (TOASTER_DEFAULTS).
 */
export function Toasts({ toast }: { toast: FlashToast | null }) {
	const hydrated = useHydrated()
	const { t } = useTranslation()
	useEffect(() => {
		if (!hydrated || !toast) return
		if (toast.event) trackKeyEvent(toast.event)
		showToast[toast.type](toast.message, {
			...(toast.description ? { description: toast.description } : {}),
			...(toast.action === 'delete-account'
				? { duration: 10_000, action: { label: t('account.delete-account'), onClick: () => openDeleteAccount(GATE_DELETE_ACCOUNT_ID) } }
				: {}),
		})
	}, [hydrated, toast, t])
	return (
		<>
			{!hydrated && toast ? (
				<div className="flash-slot">
					<input type="checkbox" id="flash-dismiss" className="flash-slot__dismiss visually-hidden" aria-label={t('auth.close')} />
					<div className={`flash flash--${toast.type}`} role={toast.type === 'error' ? 'alert' : 'status'} aria-live="polite">
						<div className="flash__text">
							<strong>{toast.message}</strong>
							{toast.description ? <p>{toast.description}</p> : null}
							{toast.action === 'delete-account' ? (
								<p>
									<a href={`#${GATE_DELETE_ACCOUNT_ID}`}>{t('account.delete-account')}</a>
								</p>
							) : null}
						</div>
						<label htmlFor="flash-dismiss" className="flash__close" title={t('auth.close')}>
							<span aria-hidden="true">×</span>
						</label>
					</div>
				</div>
			) : null}
			<AppToaster />
		</>
	)
}
