// placeholder, replaced below
export class ProfilePage { constructor(main) { main.textContent = ''; } destroy() {} }
