import { Admin, CustomRoutes, NotFound, Resource } from 'react-admin';
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import { authProvider } from './authProvider';
import { customPages, type CustomPage } from './customPages';
import { dataProvider } from './dataProvider';
import { i18nProvider } from './i18n';
import { RequireUser, SetupGate } from './layout/guards';
import { Layout } from './layout/Layout';
import users from './resources/users';
import tokens from './resources/tokens';
import channels from './resources/channels';
import logs from './resources/logs';
import midjourneys from './resources/midjourney';
import tasks from './resources/task';
import redemptions from './resources/redemption';
import { darkTheme, lightTheme, storedThemeMode } from './theme';

const CustomNotFound = customPages.find((page) => page.path === '*')?.component;

/** The not-found page from the custom pages, or react-admin's until there is one. */
function CatchAll() {
  return CustomNotFound ? <CustomNotFound /> : <NotFound />;
}

const routedPages = customPages.filter((page) => page.path !== '*');

function pageElement({ component: Page, guard }: CustomPage) {
  return guard ? (
    <RequireUser>
      <Page />
    </RequireUser>
  ) : (
    <Page />
  );
}

/** The console inside a router (tests give it a MemoryRouter). */
export function Console() {
  return (
    <SetupGate>
      <Admin
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        layout={Layout}
        catchAll={CatchAll}
        // The login page is a custom page at /login (customPages), not react-admin's.
        loginPage={false}
        lightTheme={lightTheme}
        darkTheme={darkTheme}
        defaultTheme={storedThemeMode()}
        disableTelemetry
      >
        <Resource name="user" {...users} />
        <Resource name="token" {...tokens} />
        <Resource name="channel" {...channels} />
        <Resource name="log" {...logs} />
        <Resource name="midjourney" {...midjourneys} />
        <Resource name="task" {...tasks} />
        <Resource name="redemption" {...redemptions} />
        <CustomRoutes>
          {routedPages.map((page) => (
            <Route key={page.path} path={page.path} element={pageElement(page)} />
          ))}
          <Route path="/newUser" element={<Navigate to="/user" replace />} />
          <Route path="/newToken" element={<Navigate to="/token" replace />} />
          <Route path="/newChannel" element={<Navigate to="/channel" replace />} />
          <Route path="/newLog" element={<Navigate to="/log" replace />} />
          {/* Without an id, "edit user" is editing oneself: the personal settings page. */}
          <Route path="/user/edit" element={<Navigate to="/personal" replace />} />
        </CustomRoutes>
      </Admin>
    </SetupGate>
  );
}

export default function App() {
  return (
    <BrowserRouter>
      <Console />
    </BrowserRouter>
  );
}
