//! The page's protocol, spoken by a real WebSocket client to a server on
//! a free port: good messages change the game as the rules say, bad ones
//! get an error and change nothing, and the server goes on serving.

use super::{router, Hub};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn server() -> std::net::SocketAddr {
    server_with(Hub::default()).await
}

async fn server_with(hub: Hub) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, router(Arc::new(hub))).await });
    address
}

async fn connect(address: std::net::SocketAddr) -> Socket {
    tokio_tungstenite::connect_async(format!("ws://{address}/ws")).await.expect("connect").0
}

async fn send(socket: &mut Socket, message: Value) {
    socket.send(Message::text(message.to_string())).await.expect("send");
}

/// The next message of type `kind`, passing over the engine's lines.
async fn next(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let value = next_message(socket).await;
        if value["type"] == kind {
            return value;
        }
        assert_ne!(value["type"], "error", "unexpected error while waiting for {kind}: {value}");
    }
}

/// The next state after the engine has moved (or one where it is not
/// thinking).
async fn settled_state(socket: &mut Socket) -> Value {
    loop {
        let state = next(socket, "state").await;
        if state["boards"][0]["thinking"] == false {
            return state;
        }
    }
}

async fn http_get(address: std::net::SocketAddr, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("connect");
    stream
        .write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
        .await
        .expect("write");
    let mut reply = String::new();
    stream.read_to_string(&mut reply).await.expect("read");
    let status = reply.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("status");
    let body = reply.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

fn legal_texts(state: &Value) -> Vec<String> {
    let groups = state["boards"][0]["legal"].as_object().expect("moves by origin");
    for (origin, moves) in groups {
        assert!(moves.as_array().unwrap().iter().all(|m| m["from"] == *origin), "{origin}");
    }
    groups
        .values()
        .flat_map(|moves| moves.as_array().unwrap())
        .map(|m| m["text"].as_str().expect("text").to_string())
        .collect()
}

#[tokio::test]
async fn two_people_play_and_the_state_follows_the_rules() {
    let address = server().await;
    let mut page = connect(address).await;
    send(&mut page, json!({"type": "new", "variant": "standard", "players": ["human", "human"]})).await;
    let state = next(&mut page, "state").await;
    assert_eq!(legal_texts(&state).len(), 20);
    assert_eq!(state["boards"][0]["side_to_move"], "white");
    let game = state["game"].as_u64().expect("game number");
    for (m, san) in [("f2f3", "f3"), ("e7e5", "e5"), ("g2g4", "g4"), ("d8h4", "Qh4#")] {
        send(&mut page, json!({"type": "move", "game": game, "move": m})).await;
        let state = next(&mut page, "state").await;
        assert_eq!(state["boards"][0]["moves"].as_array().unwrap().last().unwrap(), san);
    }
    let (status, body) = http_get(address, &format!("/api/games/{game}")).await;
    assert_eq!(status, 200);
    let state: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(state["boards"][0]["result"]["result"], "0-1");
    assert_eq!(state["boards"][0]["result"]["reason"], "checkmate");
    assert_eq!(state["boards"][0]["check"], "e1");
    assert!(state["boards"][0]["legal"].as_object().unwrap().is_empty());
    assert!(
        state["boards"][0]["pgn"].as_str().unwrap().contains("1. f3 e5 2. g4 Qh4# {checkmate} 0-1"),
        "{}",
        state["boards"][0]["pgn"]
    );
}

#[tokio::test]
async fn bad_messages_are_named_and_change_nothing() {
    let address = server().await;
    let mut page = connect(address).await;
    send(&mut page, json!({"type": "new", "variant": "standard", "players": ["human", "human"]})).await;
    let game = next(&mut page, "state").await["game"].as_u64().unwrap();
    let fen_before = next_fen(address, game).await;
    for (message, complaint) in [
        ("{not json".to_string(), "bad message"),
        (json!({"type": "fly", "game": game}).to_string(), "bad message"),
        (json!({"type": "move", "game": game, "move": "e2e5"}).to_string(), "illegal move 'e2e5'"),
        (json!({"type": "move", "game": game, "move": "zz"}).to_string(), "malformed move 'zz'"),
        (json!({"type": "move", "game": 999, "move": "e2e4"}).to_string(), "no game 999"),
        (json!({"type": "new", "variant": "xiangqi", "players": ["human", "human"]}).to_string(), "xiangqi"),
        (
            json!({"type": "new", "variant": "standard", "fen": "8/8 w", "players": ["human", "human"]}).to_string(),
            "bad FEN",
        ),
        (json!({"type": "join", "game": 12345}).to_string(), "no game 12345"),
        (json!({"type": "undo", "game": game}).to_string(), "no move to undo"),
    ] {
        page.send(Message::text(message.clone())).await.unwrap();
        let error = next(&mut page, "error").await;
        assert!(error["message"].as_str().unwrap().contains(complaint), "{message}: {error}");
    }
    page.send(Message::text(format!("{{\"type\": \"join\", \"game\": {game}, \"pad\": \"{}\"}}", "x".repeat(70_000))))
        .await
        .unwrap();
    assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains("at most 65536"));
    page.send(Message::binary(vec![1, 2, 3])).await.unwrap();
    assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains("binary"));
    assert_eq!(next_fen(address, game).await, fen_before, "nothing changed");
    let (status, body) = http_get(address, "/api/games/nine").await;
    assert_eq!(status, 404);
    assert!(body.contains("'nine' is not a game number"));
    let (status, body) = http_get(address, "/nowhere").await;
    assert_eq!((status, body.as_str()), (404, "no page /nowhere: the game is at /"));
    let (status, body) = http_get(address, "/").await;
    assert!(status == 200 && body.contains("<title>Protean</title>"));
    // And the game still plays.
    send(&mut page, json!({"type": "move", "game": game, "move": "e2e4"})).await;
    assert_eq!(next(&mut page, "state").await["boards"][0]["moves"], json!(["e4"]));
}

async fn next_fen(address: std::net::SocketAddr, game: u64) -> String {
    let (_, body) = http_get(address, &format!("/api/games/{game}")).await;
    let state: Value = serde_json::from_str(&body).unwrap();
    state["boards"][0]["fen"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn the_engine_answers_and_undo_takes_back_both_moves() {
    let address = server().await;
    let mut page = connect(address).await;
    send(
        &mut page,
        json!({"type": "new", "variant": "perfect", "players": ["human", "engine"], "strength": {"movetime": 500}}),
    )
    .await;
    let start = next(&mut page, "state").await;
    let game = start["game"].as_u64().unwrap();
    let first = legal_texts(&start)[0].clone();
    send(&mut page, json!({"type": "move", "game": game, "move": first})).await;
    let mut state = next(&mut page, "state").await;
    assert_eq!(state["boards"][0]["thinking"], true, "the engine thinks after the person's move");
    send(&mut page, json!({"type": "move", "game": game, "move": first})).await;
    assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains("engine's turn"));
    while state["boards"][0]["moves"].as_array().unwrap().len() < 2 {
        state = next(&mut page, "state").await;
    }
    assert_eq!(state["boards"][0]["side_to_move"], "white");
    send(&mut page, json!({"type": "undo", "game": game})).await;
    let back = next(&mut page, "state").await;
    assert_eq!(back["boards"][0]["fen"], start["boards"][0]["fen"]);
    assert_eq!(back["boards"][0]["moves"], json!([]));
}

#[tokio::test]
async fn analysis_streams_lines_until_told_to_stop() {
    let address = server().await;
    let mut page = connect(address).await;
    send(&mut page, json!({"type": "new", "variant": "onedim", "players": ["human", "human"]})).await;
    let game = next(&mut page, "state").await["game"].as_u64().unwrap();
    send(&mut page, json!({"type": "analyse", "game": game, "on": true})).await;
    let info = next(&mut page, "info").await;
    assert!(info["depth"].as_u64().unwrap() >= 1);
    assert!(!info["pv"].as_array().unwrap().is_empty());
    send(&mut page, json!({"type": "analyse", "game": game, "on": false})).await;
    send(&mut page, json!({"type": "move", "game": game, "move": "e1f1"})).await;
    let state = next(&mut page, "state").await;
    assert_eq!(state["boards"][0]["analysing"], false);
}

#[tokio::test]
async fn a_closed_socket_mid_search_ends_its_game_and_others_go_on() {
    let address = server().await;
    let mut watcher = connect(address).await;
    send(
        &mut watcher,
        json!({"type": "new", "variant": "beyond", "players": ["engine", "engine"], "strength": {"movetime": 2000}}),
    )
    .await;
    let game = next(&mut watcher, "state").await["game"].as_u64().unwrap();
    assert_eq!(http_get(address, &format!("/api/games/{game}")).await.0, 200);
    drop(watcher);
    let mut gone = false;
    for _ in 0..100 {
        if http_get(address, &format!("/api/games/{game}")).await.0 == 404 {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(gone, "the game no one watches ends");
    let mut page = connect(address).await;
    send(
        &mut page,
        json!({"type": "new", "variant": "standard", "players": ["human", "engine"], "strength": {"nodes": 2000}}),
    )
    .await;
    let state = next(&mut page, "state").await;
    send(&mut page, json!({"type": "move", "game": state["game"], "move": "d2d4"})).await;
    let state = settled_state(&mut page).await;
    assert_eq!(state["boards"][0]["moves"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_flood_is_refused_but_the_socket_still_serves() {
    let address = server().await;
    let mut page = connect(address).await;
    for _ in 0..60 {
        page.send(Message::text(json!({"type": "join", "game": 77}).to_string())).await.unwrap();
    }
    let mut refused = 0;
    for _ in 0..60 {
        if next(&mut page, "error").await["message"].as_str().unwrap().contains("too many messages") {
            refused += 1;
        }
    }
    assert!(refused > 0, "some of 60 messages at once are refused");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    send(&mut page, json!({"type": "new", "variant": "flexichess", "players": ["human", "human"]})).await;
    let state = next(&mut page, "state").await;
    let change = state["boards"][0]["rule_changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["text"] == "N=NN")
        .expect("knights may become nightriders")
        .clone();
    send(&mut page, json!({"type": "move", "game": state["game"], "move": change["text"]})).await;
    let state = next(&mut page, "state").await;
    let knight =
        state["boards"][0]["piece_rules"].as_array().unwrap().iter().find(|r| r["piece"] == "N").unwrap().clone();
    assert_eq!((knight["betza"].as_str(), knight["changed"].as_bool()), (Some("NN"), Some(true)));
}

#[tokio::test]
async fn a_clock_that_runs_out_ends_the_game() {
    let address = server().await;
    let mut page = connect(address).await;
    send(
        &mut page,
        json!({"type": "new", "variant": "standard", "players": ["human", "human"], "clock": {"base_ms": 300}}),
    )
    .await;
    let state = next(&mut page, "state").await;
    assert_eq!(state["boards"][0]["clocks"]["running"], "white");
    let over = next(&mut page, "state").await;
    assert_eq!(over["boards"][0]["result"]["result"], "0-1");
    assert_eq!(over["boards"][0]["result"]["reason"], "white lost on time");
    send(&mut page, json!({"type": "move", "game": state["game"], "move": "e2e4"})).await;
    assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains("the game is over"));
}

#[tokio::test]
async fn perplexichess_seats_a_person_on_a_board_or_as_a_strategist() {
    let address = server().await;
    let mut page = connect(address).await;
    for (spec, complaint) in [
        (json!({"type": "new", "variant": "perplexichess", "boards": 4}), "3, 5 or 7 boards"),
        (
            json!({"type": "new", "variant": "perplexichess", "seat": {"board": {"board": 3, "color": "white"}}}),
            "no board 4 of 3",
        ),
        (json!({"type": "new", "variant": "perplexichess", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}), "start position"),
        (json!({"type": "new", "variant": "standard", "boards": 3}), "for Perplexichess"),
    ] {
        send(&mut page, spec.clone()).await;
        assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains(complaint), "{spec}");
    }
    // A person plays White on board 1; engines play everything else.
    send(&mut page, json!({"type": "new", "variant": "perplexichess", "seat": {"board": {"board": 0, "color": "white"}}, "strength": {"movetime": 3000}})).await;
    let state = next(&mut page, "state").await;
    let game = state["game"].as_u64().unwrap();
    assert_eq!(state["boards"].as_array().unwrap().len(), 3);
    assert_eq!(state["boards"][0]["players"], json!({"white": "human", "black": "engine"}));
    assert_eq!(state["boards"][1]["players"], json!({"white": "engine", "black": "engine"}));
    assert_eq!(state["team"]["strategists"], json!(["engine", "engine"]));
    send(&mut page, json!({"type": "move", "game": game, "board": 1, "move": "e2e4"})).await;
    assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains("engine's turn"));
    send(&mut page, json!({"type": "move", "game": game, "board": 7, "move": "e2e4"})).await;
    assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains("no board 8 of 3"));
    send(&mut page, json!({"type": "transfer", "game": game, "from": 0, "cell": "e2", "to": 1})).await;
    assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains("no person is a grand strategist"));
    send(&mut page, json!({"type": "move", "game": game, "board": 0, "move": "e2e4"})).await;
    let mut state = next(&mut page, "state").await;
    while state["boards"][0]["moves"].as_array().unwrap().is_empty() {
        state = next(&mut page, "state").await;
    }
    assert_eq!(state["boards"][0]["moves"][0], "e4");
    send(&mut page, json!({"type": "undo", "game": game, "board": 0})).await;
    assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains("no undo"));

    // A person is White's grand strategist. The king never transfers.
    // The boards start alike and their engines play alike at first, so
    // the test waits for a white piece whose cell is empty on another
    // board, then moves it there (while the engines play on, so a try may
    // be refused and is made again).
    send(&mut page, json!({"type": "new", "variant": "perplexichess", "seat": {"strategist": {"color": "white"}}, "strength": {"movetime": 100}})).await;
    let mut state = next(&mut page, "state").await;
    let game = state["game"].as_u64().unwrap();
    assert_eq!(state["team"]["strategists"], json!(["human", "engine"]));
    send(&mut page, json!({"type": "transfer", "game": game, "from": 0, "cell": "e1", "to": 0})).await;
    assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains("two different ones"));
    send(&mut page, json!({"type": "transfer", "game": game, "from": 0, "cell": "e1", "to": 1})).await;
    assert!(next(&mut page, "error").await["message"].as_str().unwrap().contains("king"));
    for _ in 0..200 {
        let Some((from, cell, to, letter)) = transfer_candidate(&state) else {
            state = next(&mut page, "state").await;
            continue;
        };
        send(&mut page, json!({"type": "transfer", "game": game, "from": from, "cell": cell, "to": to})).await;
        let comment = json!(format!("{{transfer in: white {letter} {cell} from board {}}}", from + 1));
        loop {
            let message = next_message(&mut page).await;
            if message["type"] == "error" {
                break;
            }
            if message["type"] == "state" {
                state = message;
                if state["boards"][to]["moves"].as_array().unwrap().contains(&comment) {
                    return;
                }
            }
        }
    }
    panic!("no transfer was made");
}

/// A white piece (not the king) whose cell is empty on another board
/// still playing: from, cell, to, letter.
fn transfer_candidate(state: &Value) -> Option<(usize, String, usize, String)> {
    let boards = state["boards"].as_array().unwrap();
    let pieces = |b: &Value| -> Vec<(String, Option<String>)> {
        b["board"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["name"].as_str().unwrap().to_string(), c["piece"].as_str().map(str::to_string)))
            .collect()
    };
    for (from, a) in boards.iter().enumerate() {
        for (to, b) in boards.iter().enumerate() {
            if from == to || !b["result"].is_null() {
                continue;
            }
            for ((cell, here), (_, there)) in pieces(a).into_iter().zip(pieces(b)) {
                if let (Some(p), None) = (here, there) {
                    if p.chars().all(|l| l.is_ascii_uppercase()) && p != "K" && p != "P" {
                        return Some((from, cell, to, p));
                    }
                }
            }
        }
    }
    None
}

async fn next_message(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .expect("a message within 30 s")
            .expect("open")
            .expect("a message");
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).expect("JSON");
        }
    }
}

#[tokio::test]
async fn a_page_that_goes_silent_is_taken_for_gone() {
    // The page stops reading (so it answers no ping): its game ends once
    // the silence limit has passed, while a page that reads stays.
    let address = server_with(Hub { silence_limit: Duration::from_secs(1), ..Hub::default() }).await;
    let mut silent = connect(address).await;
    send(&mut silent, json!({"type": "new", "variant": "standard", "players": ["human", "human"]})).await;
    let silent_game = next(&mut silent, "state").await["game"].as_u64().unwrap();
    let mut awake = connect(address).await;
    send(&mut awake, json!({"type": "new", "variant": "standard", "players": ["human", "human"]})).await;
    let awake_game = next(&mut awake, "state").await["game"].as_u64().unwrap();
    let reader = tokio::spawn(async move {
        // Reading answers the server's pings.
        while let Some(Ok(_)) = awake.next().await {}
    });
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(http_get(address, &format!("/api/games/{silent_game}")).await.0, 404, "the silent page's game ended");
    assert_eq!(http_get(address, &format!("/api/games/{awake_game}")).await.0, 200, "the reading page's game goes on");
    reader.abort();
    drop(silent);
}
