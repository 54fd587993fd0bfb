namespace RpcCompare.Service.Internal;

/// <summary>A path <see cref="PathGuard"/> accepted: the client's words, for messages, and the real path's names below the root.</summary>
internal sealed record RootedPath(string Relative, string RealPath, string[] Names);
