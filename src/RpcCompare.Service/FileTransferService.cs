using RpcCompare.Contracts;
using RpcCompare.Service.Internal;

namespace RpcCompare.Service;

/// <summary>Streamed downloads and uploads confined to a <see cref="DataRoot"/>, and generated streams for measuring.</summary>
public sealed class FileTransferService : IFileTransferService
{
    /// <summary>Where uploads are stored, under the data root.</summary>
    public const string UploadsDirectoryName = "uploads";

    /// <summary>Largest generated stream: 64 GiB, far past any measurement, bounded so one call cannot run forever.</summary>
    public const long MaxPatternLength = 64L * 1024 * 1024 * 1024;

    private const int BufferSize = 64 * 1024;
    private readonly DataRoot _root;

    public FileTransferService(DataRoot root)
    {
        _root = root;
    }

    public Task<Stream> DownloadAsync(DownloadRequest request)
    {
        Requests.Require(request);
        var path = _root.Files.Resolve(request.Path);
        var handle = _root.Files.OpenFile(path, FileAccess.Read, out var isDirectory)
            ?? throw (isDirectory
                ? new RpcServiceException(RpcErrorCode.InvalidArgument, $"'{request.Path}' is a directory, not a file.")
                : new RpcServiceException(RpcErrorCode.NotFound, $"File '{request.Path}' does not exist under the data root."));

        // The binding closes the stream (and with it the handle) once it has sent it.
        return Task.FromResult<Stream>(new FileStream(handle, FileAccess.Read, BufferSize));
    }

    public async Task<UploadReply> UploadAsync(Stream data)
    {
        Requests.Require(data);
        var relative = $"{UploadsDirectoryName}/{DateTime.UtcNow:yyyyMMddTHHmmss}-{Guid.NewGuid():N}.bin";
        var path = _root.Files.Resolve(relative);
        var handle = _root.Files.CreateNew(path);
        try
        {
            await using var file = new FileStream(handle, FileAccess.Write, BufferSize);
            await data.CopyToAsync(file, BufferSize);
            return new UploadReply { Path = relative, Length = file.Length };
        }
        catch
        {
            // A broken upload leaves no half file behind.
            handle.Dispose();
            _root.Files.DeleteQuietly(path);
            throw;
        }
    }

    public Task<Stream> ReadPatternAsync(PatternRequest request)
    {
        Requests.Require(request);
        if (request.Length is < 0 or > MaxPatternLength)
        {
            throw new RpcServiceException(RpcErrorCode.InvalidArgument, $"Length must be between 0 and {MaxPatternLength}; got {request.Length}.");
        }

        return Task.FromResult<Stream>(new PatternStream(request.Length));
    }

    public async Task<LengthReply> CountAsync(Stream data) => new() { Length = await StreamDrain.ReadToEndAsync(Requests.Require(data)) };
}
