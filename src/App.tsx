import { lazy, useState, type ComponentType } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Admin, CustomRoutes, DataProviderContext, NotFound, Resource } from 'react-admin';
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import { authProvider } from './authProvider';
import { customPages } from './customPages';
import { dataProvider } from './dataProvider';
import { i18nProvider } from './i18n';
import { RequirePage, SetupGate } from './layout/guards';
import { Layout, SystemName } from './layout/Layout';
import { ALIASES } from './layout/menu';
import { resources } from './resources/registry';
import { ResourceList, type ResourceDefinition } from './resources/schema';
import { darkTheme, lightTheme, storedThemeMode } from './theme';

const CustomNotFound = customPages.find((page) => page.path === '*')?.component;

/** The not-found page from the custom pages, or react-admin's until there is one. */
function CatchAll() {
  return CustomNotFound ? <CustomNotFound /> : <NotFound />;
}

const routedPages = customPages.filter((page) => page.path !== '*');

/** The list screen of a resource; a schema declared as a module loads on first visit. */
function listOf({ schema }: ResourceDefinition): ComponentType {
  if (typeof schema !== 'function') return () => <ResourceList schema={schema} />;
  return lazy(async () => {
    const { default: loaded } = await schema();
    return { default: () => <ResourceList schema={loaded} /> };
  });
}

const screens = resources.map((definition) => ({ definition, list: listOf(definition) }));

/** The console inside a router (tests give it a MemoryRouter). */
export function Console() {
  // One data layer for the setup gate (it reads the status before react-admin mounts) and the admin.
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <DataProviderContext.Provider value={dataProvider}>
        <SetupGate>
          <Admin
            queryClient={queryClient}
            dataProvider={dataProvider}
            authProvider={authProvider}
            i18nProvider={i18nProvider}
            layout={Layout}
            title={<SystemName />}
            catchAll={CatchAll}
            // The login page is a custom page at /login (customPages), not react-admin's.
            loginPage={false}
            lightTheme={lightTheme}
            darkTheme={darkTheme}
            defaultTheme={storedThemeMode()}
            disableTelemetry
          >
            {screens.map(({ definition, list }) => (
              <Resource
                key={definition.name}
                name={definition.name}
                list={list}
                icon={definition.icon}
                // The create and edit drawers open over the list, which matches every /<name>/* path.
                hasCreate={false}
                hasEdit={false}
                recordRepresentation={definition.recordRepresentation}
              />
            ))}
            <CustomRoutes>
              {routedPages.map((page) => (
                <Route key={page.path} path={page.path} element={<RequirePage page={page} />} />
              ))}
              {ALIASES.map(({ path, to }) => (
                <Route key={path} path={path} element={<Navigate to={to} replace />} />
              ))}
              {/* Without an id, "edit user" is editing oneself: the personal settings page. */}
              <Route path="/user/edit" element={<Navigate to="/personal" replace />} />
            </CustomRoutes>
          </Admin>
        </SetupGate>
      </DataProviderContext.Provider>
    </QueryClientProvider>
  );
}

export default function App() {
  return (
    <BrowserRouter>
      <Console />
    </BrowserRouter>
  );
}
