//! `protean serve`: the games in a browser.
//!
//! One page (HTML, script and style embedded in the binary, no network
//! needed) and a WebSocket per browser tab. The server owns every game
//! (`game.rs`: a referee thread per game with its own engine); the page
//! draws what the server sends (`view.rs`: the board, the legal moves in
//! parts) and sends back the text of the move the player chose
//! (`messages.rs`: the protocol). axum on tokio serves it: the WebSocket
//! must read and write at once (the engine's lines arrive while the page
//! may send), which async tasks do without a thread per direction.

mod game;
mod messages;
mod view;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use clap::Args;
use game::{Client, Command, Game};
use messages::{ClientMessage, ServerMessage};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::MutexGuard;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

#[derive(Args)]
pub struct ServeArgs {
    /// The address to listen on (only this machine unless told otherwise).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// The port; 0 picks a free one.
    #[arg(long, default_value_t = 8080)]
    port: u16,
}

/// Games at once: each has an engine with its own table and thread.
const MAX_GAMES: usize = 32;
/// The longest message a page may send (a FEN of the 256-cell arena is
/// under 1 KiB); a longer one up to the frame limit gets an error, and
/// past the frame limit the socket is closed.
const MAX_MESSAGE_BYTES: usize = 64 * 1024;
const MAX_FRAME_BYTES: usize = 1024 * 1024;
/// Messages waiting for a page that reads slowly; a page this far behind
/// is dropped from its game.
const OUTGOING_QUEUE: usize = 1024;
/// The server pings each page this often; a page silent for
/// `Hub::silence_limit` (pongs count) is taken for gone and leaves its
/// game, as is one that cannot take a message within `SEND_LIMIT`.
const PING_EVERY: Duration = Duration::from_secs(20);
const SILENCE_LIMIT: Duration = Duration::from_secs(60);
const SEND_LIMIT: Duration = Duration::from_secs(30);
/// A socket may send this many messages at once, then this many a second.
const BURST: f64 = 20.0;
const PER_SECOND: f64 = 20.0;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// The games being played, by number, as the channels of their referees.
struct Hub {
    games: Mutex<HashMap<u64, Sender<Command>>>,
    next_game: AtomicU64,
    next_client: AtomicU64,
    /// How long a page may stay silent (tests shorten it).
    silence_limit: Duration,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            games: Mutex::default(),
            next_game: AtomicU64::default(),
            next_client: AtomicU64::default(),
            silence_limit: SILENCE_LIMIT,
        }
    }
}

/// Takes a game off the hub when its referee ends, however it ends.
struct Listed(Arc<Hub>, u64);

impl Drop for Listed {
    fn drop(&mut self) {
        self.0.games().remove(&self.1);
    }
}

impl Hub {
    /// The list of games (a referee that panicked leaves it usable).
    fn games(&self) -> MutexGuard<'_, HashMap<u64, Sender<Command>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn game(&self, id: u64) -> Option<Sender<Command>> {
        self.games().get(&id).cloned()
    }

    /// Starts a game with `client` listening; returns its number.
    fn create(self: &Arc<Self>, spec: messages::GameSpec, client: Client) -> Result<(u64, Sender<Command>), String> {
        let full = || format!("the server plays {MAX_GAMES} games at most; end one first");
        if self.games().len() >= MAX_GAMES {
            return Err(full());
        }
        let id = self.next_game.fetch_add(1, Ordering::Relaxed) + 1;
        let (to_game, commands) = std::sync::mpsc::channel();
        let game = Game::new(id, spec, to_game.clone())?;
        to_game.send(Command::Join(client)).expect("the referee's channel is open");
        {
            // Counted again where the game is listed: two pages may have
            // started games meanwhile.
            let mut games = self.games();
            if games.len() >= MAX_GAMES {
                return Err(full());
            }
            games.insert(id, to_game.clone());
        }
        let listed = Listed(self.clone(), id);
        std::thread::Builder::new()
            .name(format!("game {id}"))
            .spawn(move || {
                let _listed = listed;
                game.run(commands);
            })
            .map_err(|e| format!("cannot start the game: {e}"))?;
        Ok((id, to_game))
    }
}

pub fn run(args: &ServeArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", args.bind, args.port))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        println!("Protean serves its games at http://{address}/");
        axum::serve(listener, router(Arc::new(Hub::default()))).await.map_err(|e| e.to_string())
    })
}

fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", PAGE) }))
        .route("/app.js", get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }))
        .route("/style.css", get(|| async { asset("text/css; charset=utf-8", STYLE) }))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route(
            "/api/variants",
            get(|| async {
                json(StatusCode::OK, serde_json::to_string(&playable_variants()).expect("names serialise"))
            }),
        )
        .route("/api/games/{id}", get(game_state))
        .route(
            "/ws",
            get(|ws: WebSocketUpgrade, State(hub): State<Arc<Hub>>| async move {
                ws.max_message_size(MAX_FRAME_BYTES).on_upgrade(move |socket| serve_socket(socket, hub))
            }),
        )
        .fallback(|uri: axum::http::Uri| async move {
            (StatusCode::NOT_FOUND, format!("no page {}: the game is at /", uri.path()))
        })
        .with_state(hub)
}

/// The variants a game may be started in here: the built-in ones,
/// Perplexichess, and those loaded from files (`--variants`).
fn playable_variants() -> Vec<String> {
    let mut names = protean_rules::variants::listed(|n| n.name);
    names.insert(protean_rules::variants::VARIANTS.len(), "perplexichess".into());
    names
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A game's state as its page gets it, for tests and scripts.
async fn game_state(Path(id): Path<String>, State(hub): State<Arc<Hub>>) -> Response {
    let not_found =
        |message: String| json(StatusCode::NOT_FOUND, ServerMessage::Error { game: None, message }.to_json());
    let Ok(id) = id.parse::<u64>() else { return not_found(format!("'{id}' is not a game number")) };
    let Some(game) = hub.game(id) else { return not_found(format!("no game {id}")) };
    let (reply, answer) = tokio::sync::oneshot::channel();
    if game.send(Command::Snapshot(reply)).is_err() {
        return not_found(format!("no game {id}"));
    }
    match answer.await {
        Ok(state) => json(StatusCode::OK, state),
        Err(_) => not_found(format!("no game {id}")),
    }
}

/// Lets through `BURST` messages at once and `PER_SECOND` after that.
struct RateLimit {
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    fn new() -> RateLimit {
        RateLimit { tokens: BURST, last: Instant::now() }
    }
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * PER_SECOND).min(BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// One page's socket: its messages go to the game it plays or watches,
/// and that game's messages come back.
async fn serve_socket(mut socket: WebSocket, hub: Arc<Hub>) {
    let id = hub.next_client.fetch_add(1, Ordering::Relaxed) + 1;
    let (out, mut outgoing) = mpsc::channel::<String>(OUTGOING_QUEUE);
    let mut session = Session { hub, id, out, game: None };
    let mut limit = RateLimit::new();
    let mut heartbeat = tokio::time::interval(PING_EVERY.min(session.hub.silence_limit / 2));
    let mut last_heard = Instant::now();
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                last_heard = Instant::now();
                match incoming {
                    Some(Ok(Message::Text(text))) => {
                        if text.len() > MAX_MESSAGE_BYTES {
                            session.error(None, format!("message of {} bytes refused: at most {MAX_MESSAGE_BYTES}", text.len()));
                        } else if limit.allow() {
                            session.handle(text.as_str());
                        } else {
                            session.error(None, format!("too many messages: at most {PER_SECOND} a second; this one was ignored"));
                        }
                    }
                    Some(Ok(Message::Binary(_))) => session.error(None, "binary messages are not understood; send JSON text".into()),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                }
            }
            Some(text) = outgoing.recv() => {
                if !matches!(tokio::time::timeout(SEND_LIMIT, socket.send(Message::Text(text.into()))).await, Ok(Ok(()))) {
                    break;
                }
            }
            _ = heartbeat.tick() => {
                if last_heard.elapsed() > session.hub.silence_limit {
                    break;
                }
                if !matches!(tokio::time::timeout(SEND_LIMIT, socket.send(Message::Ping(Vec::new().into()))).await, Ok(Ok(()))) {
                    break;
                }
            }
        }
    }
}

struct Session {
    hub: Arc<Hub>,
    id: u64,
    out: mpsc::Sender<String>,
    /// The game this page plays or watches.
    game: Option<(u64, Sender<Command>)>,
}

/// However the socket's task ends (closed, failed, or panicked), its game
/// hears that it left.
impl Drop for Session {
    fn drop(&mut self) {
        self.leave();
    }
}

impl Session {
    fn error(&self, game: Option<u64>, message: String) {
        let _ = self.out.try_send(ServerMessage::Error { game, message }.to_json());
    }

    fn client(&self) -> Client {
        Client { id: self.id, out: self.out.clone() }
    }

    fn leave(&mut self) {
        if let Some((_, game)) = self.game.take() {
            let _ = game.send(Command::Leave(self.id));
        }
    }

    fn handle(&mut self, text: &str) {
        let message = match serde_json::from_str::<ClientMessage>(text) {
            Ok(m) => m,
            Err(e) => return self.error(None, format!("bad message: {e}")),
        };
        match message {
            ClientMessage::New(spec) => {
                let client = self.client();
                match self.hub.create(spec, client) {
                    Ok(game) => {
                        self.leave();
                        self.game = Some(game);
                    }
                    Err(e) => self.error(None, e),
                }
            }
            ClientMessage::Join { game } => match self.hub.game(game) {
                Some(to_game) if to_game.send(Command::Join(self.client())).is_ok() => {
                    // Joining the game it is in again only sends the state again.
                    if self.game.as_ref().is_none_or(|(g, _)| *g != game) {
                        self.leave();
                        self.game = Some((game, to_game));
                    }
                }
                _ => self.error(Some(game), format!("no game {game}")),
            },
            ClientMessage::Move { game, board, text } => {
                self.send_to_game(game, Command::Move { client: self.id, board, text })
            }
            ClientMessage::Undo { game, board } => self.send_to_game(game, Command::Undo { client: self.id, board }),
            ClientMessage::Analyse { game, board, on } => {
                self.send_to_game(game, Command::Analyse { client: self.id, board, on })
            }
            ClientMessage::Transfer { game, from, cell, to } => {
                self.send_to_game(game, Command::Transfer { client: self.id, from, cell, to })
            }
        }
    }

    fn send_to_game(&mut self, game: u64, command: Command) {
        match &self.game {
            Some((g, to_game)) if *g == game => {
                if to_game.send(command).is_err() {
                    self.game = None;
                    self.error(Some(game), format!("game {game} has ended"));
                }
            }
            _ if self.hub.game(game).is_some() => {
                self.error(Some(game), format!("this page is not in game {game}: join it first"))
            }
            _ => self.error(Some(game), format!("no game {game}")),
        }
    }
}

#[cfg(test)]
mod tests;
