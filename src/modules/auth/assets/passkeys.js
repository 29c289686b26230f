// Passkeys on Quire's sign-in and account pages, with SimpleWebAuthn's browser half (webauthn.js, which
// defines SimpleWebAuthnBrowser). Every button this file drives is hidden until it runs, so a browser
// without script or without WebAuthn never shows one that does nothing.
(function () {
  'use strict';
  var lib = window.SimpleWebAuthnBrowser;
  if (!lib || !lib.browserSupportsWebAuthn()) return;

  function post(url, body, csrf) {
    var headers = { 'content-type': 'application/json' };
    if (csrf) headers['x-csrf-token'] = csrf;
    return fetch(url, { method: 'POST', headers: headers, body: JSON.stringify(body), credentials: 'same-origin' }).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok) throw new Error(json && json.error ? json.error.message : 'The server refused the request.');
        return json;
      });
    });
  }

  function showError(id, error) {
    var box = document.getElementById(id);
    if (!box) return;
    var name = error && error.name;
    box.textContent = name === 'NotAllowedError' ? 'The passkey request was cancelled or timed out. Try again.' : (error && error.message) || 'Something went wrong.';
    box.hidden = false;
  }

  // Sign in with a passkey, or complete a password sign-in with one (second factor).
  function ceremony(buttonId, errorId, base, body) {
    var button = document.getElementById(buttonId);
    if (!button) return;
    var area = button.closest('[hidden]');
    if (area) area.hidden = false;
    button.addEventListener('click', function () {
      button.disabled = true;
      post(base + '/options', body(button))
        .then(function (started) {
          return lib.startAuthentication({ optionsJSON: started.options }).then(function (response) {
            return post(base + '/verify', { ceremony: started.ceremony, response: response });
          });
        })
        .then(function (done) {
          window.location.assign(done.redirect);
        })
        .catch(function (error) {
          button.disabled = false;
          showError(errorId, error);
        });
    });
  }
  ceremony('passkey-sign-in', 'passkey-error', '/auth/passkeys/sign-in', function (button) {
    return { returnTo: button.getAttribute('data-return-to') || '/' };
  });
  ceremony('passkey-second-factor', 'passkey-error', '/auth/passkeys/second-factor', function () {
    return {};
  });

  // Add a passkey to the signed-in account.
  var add = document.getElementById('passkey-register');
  if (add) {
    var form = add.closest('[hidden]');
    if (form) form.hidden = false;
    add.addEventListener('click', function () {
      var csrf = add.getAttribute('data-csrf');
      var nameInput = document.getElementById('passkey-name');
      add.disabled = true;
      post('/auth/passkeys/register/options', {}, csrf)
        .then(function (started) {
          return lib.startRegistration({ optionsJSON: started.options }).then(function (response) {
            return post('/auth/passkeys/register/verify', { ceremony: started.ceremony, response: response, name: nameInput ? nameInput.value : '' }, csrf);
          });
        })
        .then(function (done) {
          window.location.assign(done.redirect);
        })
        .catch(function (error) {
          add.disabled = false;
          showError('passkey-register-error', error);
        });
    });
  }
})();
