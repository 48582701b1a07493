"""What a report is made of, rendered alike as Markdown (text only) and HTML (with plots)."""
from dataclasses import dataclass, field


@dataclass
class Heading:
    text: str
    level: int = 2


@dataclass
class Paragraph:
    text: str


@dataclass
class Table:
    headers: list
    rows: list  # of lists of cells, each str or a number
    align_right: set = field(default_factory=set)  # column indexes of numbers


@dataclass
class Plot:
    title: str
    png: bytes
