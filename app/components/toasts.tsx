import { useEffect, useState } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { Toaster, toast as showToast } from 'sonner'
import { useHydrated } from '#app/utils/use-hydrated'
import { GATE_DELETE_ACCOUNT_ID, openDeleteAccount } from './delete-account'

export type FlashToast = {
	type: 'success' | 'error' | 'info' | 'warning'
	message: string
	description: string | null
	/** `delete-account`: the toast offers the delete-account confirmation of the account dialog (declined terms). */
	action: 'delete-account' | null
}

/**
 * Toasts arrive in the root loader (see modules/flash). The server HTML
 * carries the message in an aria-live region under the header, in the page's
 * flow so it covers nothing, with a close control that needs no JavaScript (a
 * checkbox its label ticks); once hydrated, sonner takes over with the spec's
 * defaults (3 visible, 4000 ms, gap 14, bottom-right).
 */
export function Toasts({ toast }: { toast: FlashToast | null }) {
	const hydrated = useHydrated()
	const { t } = useTranslation()
	useEffect(() => {
		if (!hydrated || !toast) return
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
			<ToasterAboveDialogs />
		</>
	)
}

/**
 * A modal `<dialog>` sits in the browser's top layer and makes the rest of
 * the page inert, so a toaster outside it shows dimmed under the backdrop and
 * cannot be clicked (a popover of its own would be inert too). While a modal
 * dialog is open the toaster therefore lives inside it; sonner replays the
 * toasts still showing when it moves.
 */
function ToasterAboveDialogs() {
	const { t } = useTranslation()
	const host = useTopModalDialog()
	const toaster = (
		<Toaster
			theme="dark"
			position="bottom-right"
			visibleToasts={3}
			duration={4000}
			gap={14}
			richColors
			closeButton
			toastOptions={{ closeButtonAriaLabel: t('auth.close') }}
		/>
	)
	return host ? createPortal(toaster, host) : toaster
}

function useTopModalDialog() {
	const [host, setHost] = useState<HTMLDialogElement | null>(null)
	useEffect(() => {
		const update = () => setHost([...document.querySelectorAll('dialog')].findLast((dialog) => dialog.matches(':modal')) ?? null)
		update()
		const observer = new MutationObserver(update)
		observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] })
		return () => observer.disconnect()
	}, [])
	return host
}
