"""Messages of the baptisten area (see :mod:`stich.messages`)."""

from stich.messages import define

define({
})
