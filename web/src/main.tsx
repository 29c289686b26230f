import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { loadSession, SessionContext } from './account/session.ts';
import type { Session } from './api/types.ts';
import { Screens } from './app/screens.tsx';
import './styles/base.css';

function Workspace() {
  const [session, setSession] = useState<Session | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    loadSession().then(setSession, (error: Error) => setFailure(error.message));
  }, []);
  if (failure) return <main class="boot"><h1>Quire could not start</h1><p role="alert">{failure}</p></main>;
  if (!session) return <main class="boot" aria-busy="true"><p>Loading your workspace…</p></main>;
  return (
    <SessionContext.Provider value={session}>
      <Screens />
    </SessionContext.Provider>
  );
}

render(<Workspace />, document.getElementById('app')!);
