namespace RpcCompare.Bindings.ContractAssemblies;

/// <summary>A contract assembly that cannot be served, with the file and what to do about it.</summary>
public sealed class ContractAssemblyException : Exception
{
    public ContractAssemblyException(string path, string reason, Exception? innerException = null)
        : base($"Contract assembly '{path}': {reason}", innerException)
    {
        AssemblyPath = path;
    }

    /// <summary>The assembly's full path.</summary>
    public string AssemblyPath { get; }
}
