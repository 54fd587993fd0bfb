namespace RpcCompare.GeneratedClients.Tests;

/// <summary>One client under test, reduced to the calls the parity cases make.</summary>
public interface IParityClient
{
    Task PingAsync();

    Task<IReadOnlyList<ParityEntry>> ReadDirectoryAsync(string path);

    /// <summary>WriteAt with <paramref name="offset"/> null meaning: leave it out, as a caller relying on the default does.</summary>
    Task<ParityWrite> WriteAtAsync(string? path, long? offset, int repeat);

    Task<byte[]> EchoBytesAsync(byte[] data);

    /// <summary>The RpcErrorCode name a refusal carries, or null when the exception is not a refusal.</summary>
    string? ErrorCodeOf(Exception exception);
}

public sealed record ParityEntry(string Name, long Size, bool IsDirectory);

public sealed record ParityWrite(long BytesWritten, long Offset, long FileLength);
