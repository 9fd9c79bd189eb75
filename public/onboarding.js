/* global document, location */
// The onboarding page's "first session seen" check: green once this workspace has an active
// session. It asks the REST API when the dashboard socket (re)connects, which catches up with
// anything missed, and turns green the moment a session_started event arrives. No polling.
(function () {
  const status = document.getElementById('first-session');
  if (!status) return;
  let done = false;
  let delay = 500;

  function show(text, state) {
    status.textContent = text;
    status.className = 'status ' + state;
  }

  function seen(name) {
    done = true;
    show('First session seen: ' + name + '. Your assistant is connected.', 'ok');
  }

  function getJson(path) {
    return fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' }).then(function (res) {
      if (res.status === 401) throw new Error('signed-out');
      if (!res.ok) throw new Error('HTTP ' + res.status);
      return res.json();
    });
  }

  function catchUp() {
    getJson('/projects')
      .then(function (projects) {
        return Promise.all(
          projects.slice(0, 20).map(function (p) {
            return getJson('/projects/' + encodeURIComponent(p.id) + '/sessions');
          }),
        );
      })
      .then(function (lists) {
        for (let i = 0; i < lists.length; i++) if (lists[i].length > 0 && !done) return seen(lists[i][0].name);
      })
      .catch(function (error) {
        if (error.message === 'signed-out') show('Sign in to see your sessions here.', 'waiting');
      });
  }

  function connect() {
    const socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    socket.onmessage = function (message) {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (frame.event === 'connected') {
        delay = 500;
        catchUp();
      } else if (frame.event === 'session_started' && !done) {
        seen((frame.data && frame.data.session && frame.data.session.name) || 'a session');
      }
    };
    socket.onclose = function (event) {
      if (done) return;
      if (event.code === 4401) return show('Sign in to see your sessions here.', 'waiting');
      setTimeout(connect, delay + Math.random() * delay);
      delay = Math.min(delay * 2, 30000);
    };
  }

  connect();
})();
