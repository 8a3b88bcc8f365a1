import { useTranslation } from 'react-i18next'
import { Link, NavLink } from 'react-router'
import type { Locale } from '#app/i18n/locales'
import { LanguageSwitcher } from './language-switcher'

export function SiteHeader({ locale }: { locale: Locale }) {
	const { t } = useTranslation()
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
			</div>
		</header>
	)
}
