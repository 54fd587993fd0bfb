namespace RpcCompare.Runner.Measurement;

/// <summary>A cell could not be measured; the run stops and says which cell and why.</summary>
internal sealed class MeasurementException : Exception
{
    public MeasurementException(string message, Exception? innerException = null)
        : base(message, innerException)
    {
    }
}
