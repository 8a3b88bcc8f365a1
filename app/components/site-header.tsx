import { useTranslation } from 'react-i18next'
import { Form, Link, NavLink } from 'react-router'
import type { Locale } from '#app/i18n/locales'
import { useAuthDialog } from './auth-dialog'
import { LanguageSwitcher } from './language-switcher'
import { WalletBalance } from './wallet-balance'

export type HeaderAccount = { email: string | null; username: string | null; balance?: number | null }

export function SiteHeader({ locale, account }: { locale: Locale; account: HeaderAccount | null }) {
	const { t } = useTranslation()
	const openAuthDialog = useAuthDialog()
	return (
		<header className="site-header">
			<Link className="brand" to={`/${locale}`}>
				<span className="brand__mark" aria-hidden="true">
					⚡
				</span>
				{t('app.name')}
			</Link>
			<nav aria-label={t('nav.main')} className="site-nav">
				<NavLink to={`/${locale}`} end>
					{t('nav.home')}
				</NavLink>
				<NavLink to={`/${locale}/shop`}>{t('nav.shop')}</NavLink>
			</nav>
			<div className="site-header__end">
				<LanguageSwitcher locale={locale} />
				{account ? (
					<>
						{account.balance != null ? <WalletBalance locale={locale} balance={account.balance} /> : null}
						<Link to={`/${locale}/settings`} className="account-name">
							{account.username ?? account.email ?? t('nav.settings')}
						</Link>
						<Form method="post" action={`/${locale}/logout`}>
							<button type="submit" className="button button--ghost">
								{t('auth.sign-out')}
							</button>
						</Form>
					</>
				) : (
					<Link
						to={`/${locale}/login`}
						className="button button--primary"
						onClick={(event) => {
							// With JavaScript the dialog opens in place; without, the page does.
							if (!openAuthDialog) return
							event.preventDefault()
							openAuthDialog()
						}}
					>
						{t('nav.sign-in')}
					</Link>
				)}
			</div>
		</header>
	)
}
