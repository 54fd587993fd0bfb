namespace RpcCompare.Runner.Measurement;

/// <summary>
/// The binding refused a cell's request explicitly (QuotaExceeded) on its first, untimed call:
/// the message is over the binding's limit once encoded. Reported as a refused cell rather than
/// failing the run, because that is itself the finding (10 MB of 4-byte records is tens of MB
/// once a framework encodes them).
/// </summary>
internal sealed class CellRefusedException : Exception
{
    public CellRefusedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
