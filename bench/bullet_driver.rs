//! chesshpc's bullet exports read by bullet's own code: the bulletformat crate (1.8.0, the
//! version bullet's crates depend on), through its public API only. Built by hand against
//! that crate (bench/README.md, "bullet's own reader"), not by CMake; bench/bullet_check.sh
//! runs it.
//!
//! bullet_driver dump FILE.bullet
//!     Every record as bulletformat reads it (DataLoader<ChessBoard>, the board's piece
//!     iterator, score(), result(), our_ksq(), opp_ksq(), extra()), one line each:
//!     "PLACEMENT | SCORE | RESULT", the board as the mover sees it (the mover's pieces in
//!     upper case, rank 1 the mover's first rank), score and result the mover's. Exit 1 when
//!     a record contradicts itself: a king square that is not its king's, a piece code that
//!     names no piece, an unused piece slot or extra byte that is not zero.
//! bullet_driver convert FILE.txt OUT.bullet
//!     bulletformat's own text converter, convert_from_text::<ChessBoard> (the parse
//!     bullet-utils' `convert --from text` runs), for a byte-for-byte comparison.
//! bullet_driver check FILE.txt FILE.bullet
//!     Record k of FILE.bullet against line k of FILE.txt made into a ChessBoard both ways
//!     bullet makes one: ChessBoard::from_str (its text route) and ChessBoard::from_raw from
//!     the FEN's bitboards (the route of its binpack loaders). Every field compared; exit 1
//!     on any difference, naming the line and the fields.
//!
//! Exit codes: 0 all agree, 1 a difference, 2 bad usage, 4 an unreadable file.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::exit;

use bulletformat::{convert_from_text, BulletFormat, ChessBoard, DataLoader};

const RECORD_BYTES: u64 = 32;
// Differences printed before the count.
const SHOWN: usize = 10;

fn fail(code: i32, message: &str) -> ! {
    eprintln!("bullet_driver: {message}");
    exit(code)
}

fn read_boards(path: &str) -> Vec<ChessBoard> {
    let bytes = std::fs::metadata(path)
        .unwrap_or_else(|e| fail(4, &format!("cannot read '{path}': {e}")))
        .len();
    if bytes % RECORD_BYTES != 0 {
        fail(
            1,
            &format!("'{path}' holds {bytes} bytes, not a whole number of 32-byte records"),
        );
    }
    let loader = DataLoader::<ChessBoard>::new(path, 16)
        .unwrap_or_else(|e| fail(4, &format!("cannot read '{path}': {e}")));
    let mut boards = Vec::with_capacity(loader.len());
    loader.map_positions(|b| boards.push(*b));
    boards
}

fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

// The record through bulletformat's accessors, or what contradicts itself in it.
fn describe(b: &ChessBoard) -> Result<String, String> {
    let mut grid = ['.'; 64];
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let mut count = 0;
    for (piece, sq) in b.into_iter() {
        // Bits 0-2 pawn 0 ... king 5, bit 3 the opponent's.
        if piece & 7 > 5 {
            return Err(format!("piece code {piece} on {}", square_name(sq)));
        }
        let c = b"PNBRQK"[usize::from(piece & 7)] as char;
        grid[usize::from(sq)] = if piece & 8 == 0 {
            c
        } else {
            c.to_ascii_lowercase()
        };
        match piece {
            5 => ours.push(sq),
            13 => theirs.push(sq),
            _ => {}
        }
        count += 1;
    }
    if (count..32).any(|i| (b.pcs[i / 2] >> (4 * (i & 1))) & 15 != 0) {
        return Err(format!(
            "a piece slot after the {count} pieces is not zero: {:?}",
            b.pcs
        ));
    }
    if ours != [b.our_ksq()] {
        return Err(format!(
            "our_ksq {} but the mover's kings are on {ours:?}",
            b.our_ksq()
        ));
    }
    // opp_ksq is the opponent's king seen from the opponent's side: flipped.
    if theirs.iter().map(|sq| sq ^ 56).collect::<Vec<_>>() != [b.opp_ksq()] {
        return Err(format!(
            "opp_ksq {} but the opponent's kings are on {theirs:?}",
            b.opp_ksq()
        ));
    }
    if b.extra() != [0; 3] || b.result_idx() > 2 {
        return Err(format!("extra {:?}, result {}", b.extra(), b.result_idx()));
    }
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for &c in &grid[8 * rank..8 * rank + 8] {
                if c == '.' {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                row.push(c);
                empty = 0;
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    Ok(format!(
        "{} | {} | {:.1}",
        ranks.join("/"),
        b.score(),
        b.result()
    ))
}

fn dump(path: &str) -> i32 {
    let mut bad = 0;
    for (k, b) in read_boards(path).iter().enumerate() {
        match describe(b) {
            Ok(line) => println!("{line}"),
            Err(why) => {
                bad += 1;
                if bad <= SHOWN {
                    eprintln!("bullet_driver: record {}: {why}", k + 1);
                }
            }
        }
    }
    if bad > 0 {
        eprintln!("bullet_driver: {bad} records contradict themselves");
    }
    i32::from(bad > 0)
}

// A text line "FEN | score | result" through from_raw: White's and Black's pieces, then
// pawns to kings, as bitboards from a1; the side to move; score and result White's.
fn from_raw(line: &str) -> Result<ChessBoard, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    if fields.len() != 3 {
        return Err("not 'FEN | score | result'".into());
    }
    let fen: Vec<&str> = fields[0].split_whitespace().collect();
    if fen.len() < 2 {
        return Err("a FEN without a side to move".into());
    }
    let mut bbs = [0u64; 8];
    for (i, row) in fen[0].split('/').enumerate() {
        let mut file = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                file += d as usize;
            } else {
                let p = "PNBRQKpnbrqk"
                    .find(ch)
                    .ok_or(format!("'{ch}' in the board"))?;
                let bit = 1u64 << (8 * (7 - i) + file);
                bbs[p / 6] |= bit;
                bbs[2 + p % 6] |= bit;
                file += 1;
            }
        }
    }
    let stm = usize::from(fen[1] == "b");
    let score = fields[1]
        .parse::<i16>()
        .map_err(|e| format!("score: {e}"))?;
    let result = fields[2]
        .parse::<f32>()
        .map_err(|e| format!("result: {e}"))?;
    ChessBoard::from_raw(bbs, stm, score, result)
}

fn differing_fields(a: &ChessBoard, b: &ChessBoard) -> Vec<&'static str> {
    let pairs = [
        ("occ", a.occ() == b.occ()),
        ("pieces", a.pcs == b.pcs),
        ("score", a.score() == b.score()),
        ("result", a.result_idx() == b.result_idx()),
        ("ksq", a.our_ksq() == b.our_ksq()),
        ("opp_ksq", a.opp_ksq() == b.opp_ksq()),
        ("extra", a.extra() == b.extra()),
    ];
    pairs
        .iter()
        .filter(|(_, same)| !same)
        .map(|(name, _)| *name)
        .collect()
}

fn check(text_path: &str, bullet_path: &str) -> i32 {
    let boards = read_boards(bullet_path);
    let text = File::open(text_path)
        .unwrap_or_else(|e| fail(4, &format!("cannot read '{text_path}': {e}")));
    let mut lines = 0;
    let mut bad = 0;
    let mut report = |k: usize, what: String| {
        bad += 1;
        if bad <= SHOWN {
            eprintln!("bullet_driver: line {}: {what}", k + 1);
        }
    };
    for (k, line) in BufReader::new(text).lines().enumerate() {
        let line = line.unwrap_or_else(|e| fail(4, &format!("cannot read '{text_path}': {e}")));
        lines += 1;
        let Some(ours) = boards.get(k) else { continue };
        for (route, theirs) in [
            ("from_str", line.parse::<ChessBoard>()),
            ("from_raw", from_raw(&line)),
        ] {
            match theirs {
                Ok(theirs) if theirs == *ours => {}
                Ok(theirs) => report(
                    k,
                    format!(
                        "{route} differs in {:?}: bulletformat {theirs:?}, ours {ours:?}",
                        differing_fields(&theirs, ours)
                    ),
                ),
                Err(e) => report(k, format!("{route} refused it: {e}")),
            }
        }
    }
    if lines != boards.len() {
        eprintln!(
            "bullet_driver: {lines} text lines but {} records",
            boards.len()
        );
        return 1;
    }
    if bad > 0 {
        eprintln!("bullet_driver: {bad} differences in {lines} records");
        return 1;
    }
    println!("{lines} records: every field equal to from_str's and from_raw's of the text line");
    0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: bullet_driver dump FILE.bullet | convert FILE.txt OUT.bullet | check FILE.txt FILE.bullet";
    let code = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["dump", bullet] => dump(bullet),
        ["convert", text, out] => {
            match File::open(text).and_then(|_| convert_from_text::<ChessBoard>(text, out)) {
                Ok(()) => 0,
                Err(e) => fail(4, &format!("convert: {e}")),
            }
        }
        ["check", text, bullet] => check(text, bullet),
        _ => fail(2, usage),
    };
    exit(code)
}
